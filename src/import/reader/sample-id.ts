/**
 * Sample ids become folder names (`DIR/<id>/plan.json`), so an id taken from the data is used
 * only when it is a plain name that cannot leave its folder: `[A-Za-z0-9._-]`, at most 100
 * characters, not `.` or `..`. Anything else gets the prefix-and-number id, and an id already
 * taken gets a `-2`, `-3`... suffix: the caller warns, since that sample's id is not the data's.
 */
const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Whether `id` is usable as one folder name as it is. */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id) && id !== '.' && id !== '..';
}

/** Hands out unique, safe ids for the samples of one import. */
export class SampleIds {
  readonly #taken = new Set<string>();

  /**
   * The id of a sample: `wanted` when it is safe and free, else `fallback` (made free with a
   * suffix). `changed` says the sample did not get the id the data gave it.
   */
  take(wanted: string | undefined, fallback: string): { id: string; changed: boolean } {
    const base = wanted !== undefined && isSafeId(wanted) ? wanted : fallback;
    let id = base;
    for (let n = 2; this.#taken.has(id); n++) id = `${base}-${n}`;
    this.#taken.add(id);
    return { id, changed: wanted !== undefined && id !== wanted };
  }
}
