/** An event as the run's code writes it: the Runner stamps its time (`at`) as it sends it. */
import type { RunEvent } from './types.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A RunEvent without its `at`, which the Runner adds in place. */
export type RunEventDraft = DistributiveOmit<RunEvent, 'at'>;
