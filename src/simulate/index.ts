export { DEFAULT_MAX_SCENARIOS, DEFAULT_SEED, simulate } from './simulate.js';
export type * from './types.js';
