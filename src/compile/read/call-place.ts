/**
 * The call being read, for diagnostics: one object shared by the reading of a call's keys
 * (read-call.ts), its arguments (argument scan in read-call.ts) and its output path
 * (output-path.ts), so that none of them makes a pointer or an id string unless it reports.
 */
import { callPointer } from './call-pointer.js';

/**
 * Where the call being read sits and what it is called, for its diagnostics. Its pointer
 * (`/123`) and id (`"123"` when it has no `_id`) are made only when a diagnostic needs them:
 * made for every call, they were 100k strings each on a 100k-call plan, kept for nothing. One
 * serves every call, as the scanner does: readCall never re-enters.
 */
export class CallPlace {
  index = 0;
  callsPointer = '';
  /** `_id`, when the call has a usable one. */
  explicitId: string | undefined = undefined;

  get id(): string {
    return this.explicitId ?? String(this.index);
  }

  get pointer(): string {
    return callPointer(this.callsPointer, this.index);
  }

  /** The pointer of a place inside the call: `at` is `/key...` (already escaped). */
  inside(at: string): string {
    return this.pointer + at;
  }
}

/** The one place: readCall never re-enters. */
export const place = new CallPlace();
