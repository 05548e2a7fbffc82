/**
 * The alternatives of `||` reads while they are being bound. `"†input.nickname || †input.name"`
 * reads the first alternative that exists, so one that nothing can ever set is not a mistake
 * that stops the plan as long as another can be set: it is reported as a warning and the read
 * takes the others. Only when none of them can ever be set is each one E_UNRESOLVED, as a read
 * of one reference would be.
 *
 * An alternative's fate may be known only at the end (a forward reference is bound by
 * `finish`), so each expression counts its alternatives still open and is judged when the last
 * one is bound. Only `||` expressions of two or more references come here: a plain read makes
 * nothing.
 */
import type { Path } from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';

/** An alternative nothing can ever set. */
export interface UnsetAlternative {
  readonly call: number;
  /** Its read's number in the flow columns. */
  readonly read: number;
  readonly ref: Reference;
  readonly path: Path;
  /** Pointer (inside the call's arguments) of the string it is in. */
  readonly at: string;
}

interface Group {
  /** Alternatives not bound yet. */
  open: number;
  /** Some alternative can be set. */
  settable: boolean;
  /** The alternatives nothing sets, in the order they were bound. */
  unset: UnsetAlternative[] | null;
}

/**
 * Hears each unset alternative once its expression is judged: `alternative` true when another
 * one can be set (a warning), false when none can (E_UNRESOLVED).
 */
export type UnsetReport = (unset: UnsetAlternative, alternative: boolean) => void;

export class AlternativeReads {
  readonly #groups: Group[] = [];

  constructor(private readonly report: UnsetReport) {}

  /** A `||` expression of `count` references starts binding: returns its group number. */
  open(count: number): number {
    this.#groups.push({ open: count, settable: false, unset: null });
    return this.#groups.length - 1;
  }

  /** An alternative of `group` can be set (written, given, declared by the state schema). */
  settable(group: number): void {
    const g = this.#groups[group]!;
    g.settable = true;
    this.#bound(g);
  }

  /** An alternative of `group` that nothing can ever set. */
  unset(group: number, alternative: UnsetAlternative): void {
    const g = this.#groups[group]!;
    (g.unset ??= []).push(alternative);
    this.#bound(g);
  }

  #bound(g: Group): void {
    if (--g.open > 0 || g.unset === null) return;
    for (const unset of g.unset) this.report(unset, g.settable);
    g.unset = null;
  }
}
