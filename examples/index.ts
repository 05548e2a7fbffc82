/** The examples, one per seed walkthrough, in seed order. */
import type { Example } from './example.js';

export const EXAMPLES: readonly Example[] = [];
