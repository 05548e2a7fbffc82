export { MOCK_DEFAULTS, type MockToolsOptions, mockTools } from './mock-tools.js';
export { type LatencyDraw, type MockLatency, mockLatencyMs } from './mock-latency.js';
