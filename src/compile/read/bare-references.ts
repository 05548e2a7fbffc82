/**
 * The first step of the missing-dagger check (check/missing-daggers.ts), taken while a call's
 * arguments are read: a look at the first few characters of each string, so that almost every
 * string costs one or two character reads, and the few that start like a reference without its
 * `†` are noted for the judgement made when every call is in.
 */
import { DAGGER } from '../../language/reference.js';

/** A string argument that may be a reference without its dagger, noted while arguments are scanned. */
export interface BareReference {
  /** Index of the call. */
  readonly call: number;
  /** JSON pointer of the string inside the call's arguments. */
  readonly at: string;
  readonly text: string;
}

/** Longer strings are prose or data, not a forgotten reference; they are not looked at again. */
export const MAX_BARE_REFERENCE_LENGTH = 1_000;

const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;
const RETURN = 13;
const DOLLAR = 36;
const AT = 64;
const DOT = 46;
const OPEN_BRACKET = 91;

/**
 * True when `value` starts (after blanks) like a reference without its dagger: an optional `$`
 * or `@`, then `state` or `input`, then `.` or `[`. A cheap filter, not the decision: see
 * reportMissingDaggers (check/missing-daggers.ts).
 */
export function mayBeBareReference(value: string): boolean {
  if (value.length > MAX_BARE_REFERENCE_LENGTH) return false;
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== NEWLINE && c !== RETURN) break;
  }
  const c = value.charCodeAt(i);
  if (c === DOLLAR || c === AT) i++;
  if (!value.startsWith('state', i) && !value.startsWith('input', i)) return false;
  const next = value.charCodeAt(i + 5);
  return next === DOT || next === OPEN_BRACKET;
}

/** The reference a candidate would be with its dagger: trimmed, a leading `$` or `@` swapped for `†`. */
export function withDagger(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charCodeAt(0);
  return DAGGER + (first === DOLLAR || first === AT ? trimmed.slice(1) : trimmed);
}
