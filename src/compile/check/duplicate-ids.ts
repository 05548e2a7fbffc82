/**
 * E_DUPLICATE_ID without a map entry per call: default ids (the index as a string) are
 * unique among themselves, so only explicit `_id`s are indexed, and a default id can only
 * clash with an explicit id that looks like an index.
 */
import { error, type DiagnosticSink } from '../../language/diagnostics.js';
import { joinPointer } from '../../language/pointer.js';
import type { CallSpec } from '../read/index.js';

export class DuplicateIds {
  readonly #firstExplicit = new Map<string, number>();
  /** Indices of the calls with an explicit `_id` (few, usually). */
  readonly #explicit = new Set<number>();
  readonly #clashes: { later: number; earlier: number }[] = [];

  add(spec: CallSpec, explicit: boolean): void {
    if (!explicit) return;
    this.#explicit.add(spec.index);
    const earlier = this.#firstExplicit.get(spec.id);
    if (earlier === undefined) this.#firstExplicit.set(spec.id, spec.index);
    else this.#clashes.push({ later: spec.index, earlier });
  }

  report(specs: readonly CallSpec[], pending: DiagnosticSink): void {
    for (const [id, holder] of this.#firstExplicit) {
      if (!/^(0|[1-9]\d*)$/.test(id)) continue;
      const other = Number(id);
      if (other >= specs.length || other === holder || this.#explicit.has(other)) continue;
      // Call `other` has the default id `id`, which call `holder` chose explicitly.
      this.#clashes.push(
        other < holder ? { later: holder, earlier: other } : { later: other, earlier: holder },
      );
    }
    for (const { later, earlier } of this.#clashes.sort((a, b) => a.later - b.later)) {
      const spec = specs[later]!;
      const explicit = this.#explicit.has(later);
      pending.push(
        error(
          'E_DUPLICATE_ID',
          explicit ? joinPointer(spec.pointer, '_id') : spec.pointer,
          `call id "${spec.id}" is already used by call ${earlier}`,
          {
            call: spec.id,
            hint: explicit
              ? 'give every call its own _id'
              : `this call's default id is its index; pick another _id for call ${earlier}`,
          },
        ),
      );
    }
  }
}
