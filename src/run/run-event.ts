/** An event as the run's code writes it, and the time the Runner stamps on it (`at`) as it sends it. */
import type { RunEvent } from './types.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A RunEvent without its `at`, which the Runner adds in place. */
export type RunEventDraft = DistributiveOmit<RunEvent, 'at'>;

let lastMs = -1;
let lastIso = '';

/** The time now as ISO text; events come in bursts within one millisecond, so it is made once per millisecond. */
export function isoNow(): string {
  return isoAt(Date.now());
}

/** `ms` as ISO text, made once per millisecond as isoNow's are (the last one is kept). */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
