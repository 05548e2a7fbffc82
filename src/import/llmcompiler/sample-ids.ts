/**
 * Sample ids are folder names (`DIR/<id>/plan.json`): a row's own id when it is a safe one,
 * else `llmcompiler-<n>`, and unique across the import (a later duplicate gets `-2`, `-3`, ...).
 */

const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Whether `id` can name a folder in any file system: `[A-Za-z0-9._-]`, not `.`/`..`, at most 100 characters. */
export function isSafeSampleId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id) && id !== '.' && id !== '..';
}

/** Hands out unique ids in the order samples are read. */
export class SampleIds {
  private readonly taken = new Set<string>();
  // The next suffix to try per wanted id, so n copies of one id cost n tries, not n².
  private readonly nextSuffix = new Map<string, number>();

  /** A unique id for `wanted`, and whether it had to change. */
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
