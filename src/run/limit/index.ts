export { createLimiter, isLimiter, Limiter, type LimiterGroupState, type LimiterOptions } from './limiter.js';
export { type LimitedTaskOptions } from './limiter.js';
export { type LimitedRun, limitedTools } from './limited-tools.js';
export { callPriority, remainingChains } from './call-priority.js';
