/**
 * Sample ids become folder names (`DIR/<id>/plan.json`), so an id taken from the data is used
 * only when it is a plain name that cannot leave its folder: `[A-Za-z0-9._-]`, at most 100
 * characters, not `.` or `..`. Anything else gets the reader's prefix-and-number id, and an id
 * already taken gets a `-2`, `-3`... suffix: the reader warns, since that sample's id is not the
 * data's.
 */
const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Whether `id` can name a folder in any file system: `[A-Za-z0-9._-]`, not `.`/`..`, at most 100 characters. */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id) && id !== '.' && id !== '..';
}

/** Hands out unique ids in the order samples are read. */
export class SampleIds {
  private readonly taken = new Set<string>();
  // The next suffix to try per wanted id, so n copies of one id cost n tries, not n².
  private readonly nextSuffix = new Map<string, number>();

  /** A unique id for `wanted` (a safe id), and whether it had to change. */
  claim(wanted: string): { id: string; renamed: boolean } {
    if (!this.taken.has(wanted)) {
      this.taken.add(wanted);
      return { id: wanted, renamed: false };
    }
    // Keeps the suffixed name within 100 characters, so it is as safe as the one it replaces.
    for (let suffix = this.nextSuffix.get(wanted) ?? 2; ; suffix += 1) {
      const tail = `-${suffix}`;
      const id = `${wanted.slice(0, 100 - tail.length)}${tail}`;
      if (!this.taken.has(id)) {
        this.taken.add(id);
        this.nextSuffix.set(wanted, suffix + 1);
        return { id, renamed: true };
      }
    }
  }
}
