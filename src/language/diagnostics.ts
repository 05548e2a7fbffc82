/** Severity of a diagnostic: errors make a plan invalid, warnings do not. */
export type Severity = 'error' | 'warning';

/** The diagnostic codes: stable, so tools and scripts may match on them. */
export const DIAGNOSTIC_CODES = [
  'E_JSON',
  'E_SHAPE',
  // A key written twice in one object: JSON readers keep the last, the text would not say what runs.
  'E_DUPLICATE_KEY',
  'E_NO_TOOL',
  'E_UNKNOWN_TOOL',
  'E_UNKNOWN_META',
  'E_DUPLICATE_ID',
  'E_REF_SYNTAX',
  'E_REF_ROOT',
  'E_REF_FORBIDDEN',
  // A JSONPath selection in a reference (`[?(...)]`, `[0:3]`, `[-1]`, `[0,2]`, `..key`) that is not one.
  'E_REF_SELECTION',
  'E_MIXED_OPS',
  'E_OUTPUT_PATH',
  // An `_onError` that names no `||` alternative of its call's `_outputPath`.
  'E_ON_ERROR',
  'E_UNRESOLVED',
  // A `||` alternative that can never be set, beside one that can: the read takes the others.
  'W_UNRESOLVED_ALTERNATIVE',
  'E_CYCLE',
  // An `_after` that names no call, or is not a list of call ids.
  'E_AFTER',
  'E_ARGS',
  // A reference whose value can never fit the parameter (type flow); W_: only on some branch.
  'E_REF_TYPE',
  'W_REF_TYPE',
  // A required argument read through a property its writer's schema does not require.
  'W_REF_OPTIONAL',
  // A read of an error alternative (which holds only the error object) as if it held data.
  'W_ERROR_AS_DATA',
  'E_LAZY_OUTPUT',
  // A latent call without _output in an eager plan: nothing would give its result.
  'E_NO_OUTPUT',
  // A `_forEach` that is not one reference string, or on a call that cannot loop (latent, _output).
  'E_FOR_EACH',
  // `†item` or `†index` where there is no element: outside the arguments of a `_forEach` call.
  'E_FOR_EACH_REF',
  // A `_forEach` reference whose value can never be an array.
  'E_FOR_EACH_TYPE',
  'E_STATE_SCHEMA',
  // A request's schema (the reply's, or the answer's) that is not a usable JSON Schema.
  'E_OUTPUT_SCHEMA',
  // A written value the state schema never allows at its path; W_: only some of its forms.
  'E_STATE_TYPE',
  'W_STATE_TYPE',
  'E_LIMIT',
  'W_MULTIPLE_WRITERS',
  'W_DAGGER_TEXT',
  // "state.x" or "$state.x" where †state.x was surely meant: the path is written or given.
  'W_MISSING_DAGGER',
  // Past limits.maxDiagnostics, only warnings were left out: the plan stays valid.
  'W_LIMIT',
  // A comment or trailing comma in the text: read as space, said where.
  'W_JSON_EXTENSION',
] as const;

/**
 * Codes only the dry run reports (`plan simulate`): they are about values that flow at run
 * time, so compile and validate never emit them.
 */
export const SIMULATION_CODES = ['E_SIM_ARGS'] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number] | (typeof SIMULATION_CODES)[number];

/**
 * One problem found in a plan. Diagnostics are values: they are collected and returned,
 * never thrown, so a model (or a person) sees every mistake at once.
 */
export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** RFC 6901 pointer into the document ("" is the whole document). */
  pointer: string;
  /** 1-based line of the value the pointer names, in the source text. */
  line: number;
  /** 1-based column of that value (or of the exact character inside a string). */
  column: number;
  /** Id of the call the diagnostic is about, when it is about one. */
  call?: string;
  /** How to fix it. */
  hint?: string;
}

/**
 * A diagnostic before it has a position. `offset` is a character offset inside the string
 * value at `pointer`, for errors inside reference expressions.
 */
export interface PendingDiagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  pointer: string;
  call?: string;
  hint?: string;
  offset?: number;
  /** Point at the key of the member `pointer` names rather than at its value. */
  atKey?: boolean;
  /** Set when the position is already known (E_JSON comes with one). */
  line?: number;
  column?: number;
}

export function error(
  code: DiagnosticCode,
  pointer: string,
  message: string,
  extra: Partial<Pick<PendingDiagnostic, 'call' | 'hint' | 'offset' | 'atKey'>> = {},
): PendingDiagnostic {
  return { severity: 'error', code, message, pointer, ...withoutUndefined(extra) };
}

export function warning(
  code: DiagnosticCode,
  pointer: string,
  message: string,
  extra: Partial<Pick<PendingDiagnostic, 'call' | 'hint' | 'offset' | 'atKey'>> = {},
): PendingDiagnostic {
  return { severity: 'warning', code, message, pointer, ...withoutUndefined(extra) };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out;
}

/** What strict mode adds to a warning's message: the code stays, the severity becomes error. */
export const STRICT_NOTE = ' (strict)';

/**
 * The diagnostic as strict mode reports it: a warning becomes an error with its code unchanged
 * and `(strict)` after its message, so a missing † or an overwritten output can fail CI. Errors
 * are returned as they are.
 */
export function asStrict<T extends { severity: Severity; message: string }>(diagnostic: T): T {
  if (diagnostic.severity !== 'warning') return diagnostic;
  return { ...diagnostic, severity: 'error', message: diagnostic.message + STRICT_NOTE };
}

export function hasErrors(diagnostics: readonly { severity: Severity }[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Source order: by line, then column, then code, so output is stable and reads top to bottom. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/**
 * Most work ("did you mean" cells, see compile/nearest.ts) the hints of one collection may
 * spend together: a few tens of milliseconds.
 */
export const MAX_HINT_CELLS = 4_000_000;

/** Work the hints of one collection may still spend; a search spends from it. */
export interface HintBudget {
  cells: number;
}

/** Where diagnostics are collected: an array, or a {@link DiagnosticList} that keeps only so many. */
export interface DiagnosticSink {
  push(diagnostic: PendingDiagnostic): unknown;
  /** True when more would not be kept: a caller may skip costly hints ("did you mean"). */
  readonly full?: boolean;
  /** What the collection's "did you mean" searches may still spend (absent: each search its own). */
  readonly hints?: HintBudget;
  /** Counts a diagnostic that would not be kept, without building it. */
  omit?(severity: Severity): void;
}

/**
 * True (and the diagnostic counted) when `sink` keeps no more: a loop that may find a hundred
 * thousand problems builds the first few and counts the rest.
 */
export function countedIfFull(sink: DiagnosticSink, severity: Severity): boolean {
  if (!sink.full || !sink.omit) return false;
  sink.omit(severity);
  return true;
}

/**
 * Diagnostics as they are found, keeping the first `max` and counting the rest, so a plan with a
 * million mistakes costs a counter, not a million positioned objects. `full` tells a caller it
 * may skip work (a "did you mean" search) for diagnostics nobody will see.
 */
export class DiagnosticList implements DiagnosticSink {
  readonly items: PendingDiagnostic[] = [];
  readonly hints: HintBudget = { cells: MAX_HINT_CELLS };
  #omittedErrors = 0;
  #omittedWarnings = 0;
  readonly #strict: boolean;

  constructor(
    /** How many are kept. */
    readonly max: number,
    options: {
      /**
       * Every warning is kept as an error ({@link asStrict}): a streamed call with one does not run.
       * @default false
       */
      readonly strict?: boolean;
    } = {},
  ) {
    this.#strict = options.strict === true;
  }

  push(diagnostic: PendingDiagnostic): void {
    if (this.items.length < this.max) this.items.push(this.#strict ? asStrict(diagnostic) : diagnostic);
    else this.omit(diagnostic.severity);
  }

  omit(severity: Severity): void {
    if (severity === 'error' || this.#strict) this.#omittedErrors++;
    else this.#omittedWarnings++;
  }

  get full(): boolean {
    return this.items.length >= this.max;
  }

  /** Every diagnostic pushed, kept or not. */
  get length(): number {
    return this.items.length + this.#omittedErrors + this.#omittedWarnings;
  }

  get omitted(): { readonly errors: number; readonly warnings: number } {
    return { errors: this.#omittedErrors, warnings: this.#omittedWarnings };
  }
}

/**
 * The first `max` of positioned, sorted diagnostics, and one last diagnostic counting the rest
 * (those cut here and those a {@link DiagnosticList} never kept). It is an error when any of the
 * rest is one, so a plan never looks valid for having too many mistakes.
 */
export function capDiagnostics(
  sorted: Diagnostic[],
  max: number,
  omitted: { readonly errors: number; readonly warnings: number } = { errors: 0, warnings: 0 },
): Diagnostic[] {
  let errors = omitted.errors;
  let warnings = omitted.warnings;
  for (let i = max; i < sorted.length; i++) {
    if (sorted[i]!.severity === 'error') errors++;
    else warnings++;
  }
  if (errors + warnings === 0) return sorted;
  const kept = sorted.length > max ? sorted.slice(0, max) : sorted;
  const parts = [errors > 0 && plural(errors, 'error'), warnings > 0 && plural(warnings, 'warning')].filter(
    Boolean,
  );
  kept.push({
    severity: errors > 0 ? 'error' : 'warning',
    code: errors > 0 ? 'E_LIMIT' : 'W_LIMIT',
    message: `and ${parts.join(' and ')} more, not listed`,
    pointer: '',
    line: 1,
    column: 1,
    hint: `fix the ones above and check again, or raise limits.maxDiagnostics (${max})`,
  });
  return kept;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
