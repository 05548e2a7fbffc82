/**
 * The patterns a plan schema (plan-schema.ts) shares between its calls: references, output
 * paths, `_onError`, ids, `_after` and `_forEach`, as the reference grammar's linear patterns,
 * written once under the root's `$defs` and pointed at, or written out for a call that is a
 * resource of its own.
 */

import { referencePatterns } from './reference-regex.js';

const ECMA = referencePatterns('ecma');

/** A reference expression: `†input.<path>` or `†state.<path>`, alternatives with `||` or all with `&&`. */
export const REFERENCE_PATTERN = ECMA.reference;
/** `†item`, `†item.<path>` or `†index`: the element of a `_forEach` call, or its position. */
export const ELEMENT_PATTERN = ECMA.element;
/** What an argument string that is a reference may be: a reference expression or an element reference. */
export const ARGUMENT_REFERENCE_PATTERN = ECMA.argumentReference;
/** An `_outputPath`: `†state.<path>`, alternatives with `||` or fan-out with `&&`; no `[*]`. */
export const OUTPUT_PATH_PATTERN = ECMA.outputPath;
/** An `_onError`: one `†state.<path>`, one of the call's `||` alternatives. */
export const ON_ERROR_PATTERN = ECMA.onError;
/** An `_id`: any non-empty string. */
export const ID_PATTERN = String.raw`^[\s\S]+$`;

export const REFERENCE = {
  type: 'string',
  pattern: ARGUMENT_REFERENCE_PATTERN,
  description:
    'A reference to data: †input.<path> or †state.<path>; in a call with _forEach also †item, †item.<path> (the element) or †index (its position)',
};
export const FOR_EACH = {
  type: 'string',
  pattern: REFERENCE_PATTERN,
  description:
    'Optional: a reference to an array (†state.<path> or †input.<path>); the call runs once per element, with †item and †index in its arguments, and _outputPath receives the results in element order',
};
/**
 * Any argument value in which no string is `†item...` or `†index`: the arguments of a call
 * without `_forEach` (where the compiler refuses them, E_FOR_EACH_REF). It has an `$id` of its
 * own so that a call which is a resource of its own (its tool has `$defs`) reaches it too, and
 * it reaches into arrays and objects through `#`, itself.
 */
export const NO_ELEMENT_ID = 'https://planmode.invalid/plan/no-element.json';
export const NO_ELEMENT = {
  $id: NO_ELEMENT_ID,
  description: 'An argument of a call without _forEach: †item and †index appear nowhere in it',
  not: { type: 'string', pattern: ELEMENT_PATTERN },
  items: { $ref: '#' },
  additionalProperties: { $ref: '#' },
};
export const OUTPUT_PATH = {
  type: 'string',
  pattern: OUTPUT_PATH_PATTERN,
  description:
    'Where the result goes: †state.<path>; alternatives with || (the first takes a plain result), all paths with &&',
};
export const ON_ERROR = {
  type: 'string',
  pattern: ON_ERROR_PATTERN,
  description:
    "Which || alternative of _outputPath receives the tool's error, {message, code?}, when it fails; without it a failure fails the call",
};
export const ID = { type: 'string', pattern: ID_PATTERN, description: 'Optional stable id of the call' };
export const AFTER = {
  type: 'array',
  items: { type: 'string', pattern: ID_PATTERN },
  uniqueItems: true,
  description: 'Optional ids of calls this one starts after, with no data between them',
};
export const INDEPENDENT = {
  type: 'boolean',
  description: 'Optional: true lets a call with effects run out of program order',
};

/** The shared patterns, under the root's `$defs` (strict mode's have no `_after`: see plainCall). */
export const DEFINITIONS = {
  reference: REFERENCE,
  outputPath: OUTPUT_PATH,
  onError: ON_ERROR,
  id: ID,
  after: AFTER,
  forEach: FOR_EACH,
  noElement: NO_ELEMENT,
};
export const STRICT_DEFINITIONS = {
  reference: REFERENCE,
  outputPath: OUTPUT_PATH,
  onError: ON_ERROR,
  id: ID,
  forEach: FOR_EACH,
};
/** Pointers to them, for schemas inside the root's resource. */
export const SHARED: Patterns = {
  reference: { $ref: '#/$defs/reference' },
  outputPath: { $ref: '#/$defs/outputPath' },
  onError: { $ref: '#/$defs/onError' },
  id: { $ref: '#/$defs/id' },
  after: { $ref: '#/$defs/after' },
  forEach: { $ref: '#/$defs/forEach' },
};
/** The patterns written out, for a call that is a resource of its own (its tool has `$defs`). */
export const INLINE: Patterns = {
  reference: REFERENCE,
  outputPath: OUTPUT_PATH,
  onError: ON_ERROR,
  id: ID,
  after: AFTER,
  forEach: FOR_EACH,
};

export interface Patterns {
  readonly reference: Record<string, unknown>;
  readonly outputPath: Record<string, unknown>;
  readonly onError: Record<string, unknown>;
  readonly id: Record<string, unknown>;
  readonly after: Record<string, unknown>;
  readonly forEach: Record<string, unknown>;
}
