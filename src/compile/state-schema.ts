/**
 * The state schema as a map of places: may a call write at a path (E_STATE_SCHEMA), and
 * does the schema declare a path (so an unwritten read is "missing at run time", not an
 * error). Deliberately permissive where JSON Schema is too rich to decide statically:
 * combinators count as "any branch allows".
 */
import { error, type PendingDiagnostic } from '../language/diagnostics.js';
import type { JsonObject } from '../language/document.js';
import type { PathSegment } from '../language/paths.js';
import { splitPointer } from '../language/pointer.js';
import { compileLinearRegExp, type LinearRegExp, UnsupportedPatternError } from '../tools/patterns/index.js';
import { findSchemaPatterns } from '../tools/schema-patterns.js';

type Schema = JsonObject | boolean;

interface Verdict {
  readonly allowed: boolean;
  readonly declared: boolean;
  /** Keys the schema names where the walk stopped, for hints. */
  readonly known: readonly string[];
  /** Index of the segment where the walk failed, when it failed. */
  readonly failedAt?: number;
}

export function checkStatePath(root: JsonObject, segments: readonly PathSegment[]): Verdict {
  const patterns = patternsOf(root);
  let current: Schema[] = [root];
  let declared = true;
  for (let i = 0; i < segments.length; i++) {
    const segment = String(segments[i]);
    const next: Schema[] = [];
    let allowed = false;
    let declaredHere = false;
    const known: string[] = [];
    for (const schema of expand(current, root)) {
      const step = stepInto(schema, segment, patterns);
      known.push(...step.known);
      if (step.next === undefined) continue;
      allowed = true;
      declaredHere ||= step.declared;
      next.push(step.next);
    }
    if (!allowed) return { allowed: false, declared: false, known: [...new Set(known)], failedAt: i };
    declared &&= declaredHere;
    current = next;
  }
  return { allowed: true, declared, known: [] };
}

/**
 * What the state schema allows at a path: the schema there (as an `anyOf` when combinators or
 * patterns lead to several), `true` when any value may be there (a place it does not describe),
 * or undefined when it has no place for the path (E_STATE_SCHEMA). Local `$ref`s on the way,
 * and at the place itself, are followed.
 */
export function stateSchemaAt(root: JsonObject, segments: readonly PathSegment[]): Schema | undefined {
  const patterns = patternsOf(root);
  let current: Schema[] = [root];
  for (let i = 0; i < segments.length; i++) {
    const next: Schema[] = [];
    for (const schema of expand(current, root)) {
      const step = stepInto(schema, String(segments[i]), patterns);
      if (step.next !== undefined) next.push(step.next);
    }
    if (next.length === 0) return undefined;
    current = next;
  }
  const found: Schema[] = [];
  for (let schema of current) {
    for (let hops = 0; hops < 32 && isObject(schema) && typeof schema.$ref === 'string'; hops++) {
      schema = resolveLocalRef(root, schema.$ref) ?? true; // a remote $ref: anything
    }
    if (!isObject(schema) && schema !== false) return true;
    found.push(schema);
  }
  return found.length === 1 ? found[0]! : { anyOf: found };
}

function isObject(schema: unknown): schema is JsonObject {
  return schema !== null && typeof schema === 'object' && !Array.isArray(schema);
}

/** Resolves local `$ref`s and flattens allOf/anyOf/oneOf into candidate schemas. */
function expand(schemas: Schema[], root: JsonObject): Schema[] {
  const out: Schema[] = [];
  const stack = [...schemas];
  let guard = 0;
  while (stack.length > 0 && guard++ < 1000) {
    const schema = stack.pop()!;
    if (typeof schema === 'boolean') {
      out.push(schema);
      continue;
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
      // Not a schema (a model's or a person's typo): it constrains nothing we can read.
      out.push(true);
      continue;
    }
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (target !== undefined) stack.push(target);
      else out.push(true); // a remote $ref: cannot tell, so allow
      continue;
    }
    let combined = false;
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list)) {
        combined = true;
        stack.push(...(list as Schema[]));
      }
    }
    if (!combined || schema.properties || schema.items || schema.additionalProperties !== undefined)
      out.push(schema);
  }
  return out;
}

function resolveLocalRef(root: JsonObject, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  for (const token of splitPointer(decodeURIComponent(ref.slice(1)))) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as JsonObject)[token];
  }
  return typeof current === 'boolean' || (current !== null && typeof current === 'object')
    ? (current as Schema)
    : undefined;
}

function stepInto(
  schema: Schema,
  segment: string,
  patterns: StatePatterns,
): { next?: Schema; declared: boolean; known: string[] } {
  if (schema === true) return { next: true, declared: false, known: [] };
  if (schema === false || isNothing(schema)) return { declared: false, known: [] };
  const types = schema.type === undefined ? null : ([] as unknown[]).concat(schema.type);
  const allowsObject = types === null || types.includes('object');
  const allowsArray = types === null || types.includes('array');
  const properties = (schema.properties ?? {}) as JsonObject;
  const known = Object.keys(properties);
  if (allowsObject && Object.hasOwn(properties, segment)) {
    return { next: properties[segment] as Schema, declared: true, known };
  }
  if (allowsObject && schema.patternProperties && typeof schema.patternProperties === 'object') {
    for (const [pattern, sub] of Object.entries(schema.patternProperties as JsonObject)) {
      if (patterns.test(pattern, segment)) return { next: sub as Schema, declared: true, known };
    }
  }
  if (
    allowsArray &&
    /^\d+$/.test(segment) &&
    (schema.items !== undefined || schema.prefixItems !== undefined)
  ) {
    const prefix = Array.isArray(schema.prefixItems)
      ? (schema.prefixItems as Schema[])
      : Array.isArray(schema.items)
        ? (schema.items as Schema[])
        : [];
    const n = Number(segment);
    if (n < prefix.length) return { next: prefix[n]!, declared: true, known };
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    if (rest === false) return { declared: false, known };
    return { next: (rest as Schema | undefined) ?? true, declared: rest !== undefined, known };
  }
  if (!allowsObject && !allowsArray) return { declared: false, known };
  if (!allowsObject && !/^\d+$/.test(segment)) return { declared: false, known };
  const additional = schema.additionalProperties;
  if (additional === false) return { declared: false, known };
  return { next: (additional as Schema | undefined) ?? true, declared: false, known };
}

/**
 * Sum of the lengths and compiled sizes of the patternProperties patterns one state schema may
 * have compiled. The schema comes with the plan: each pattern is bounded on its own (length,
 * size), and this bounds them together, so a schema of many big patterns costs a fraction of a
 * second, not minutes. A pattern past the budget matches nothing (and is reported).
 */
export const MAX_STATE_PATTERN_BUDGET = 100_000;

/** The state schema's patterns, compiled once each, within {@link MAX_STATE_PATTERN_BUDGET}. */
class StatePatterns {
  readonly #compiled = new Map<string, LinearRegExp | UnsupportedPatternError | null>();
  #spent = 0;

  test(pattern: string, text: string): boolean {
    const compiled = this.compiled(pattern);
    return compiled !== null && !(compiled instanceof UnsupportedPatternError) && compiled.test(text);
  }

  /** The pattern compiled, why it cannot be, or null when the budget ran out before it. */
  compiled(pattern: string): LinearRegExp | UnsupportedPatternError | null {
    const known = this.#compiled.get(pattern);
    if (known !== undefined) return known;
    let compiled: LinearRegExp | UnsupportedPatternError | null = null;
    if (this.#spent <= MAX_STATE_PATTERN_BUDGET) {
      try {
        compiled = compileLinearRegExp(pattern);
        this.#spent += pattern.length + compiled.size;
      } catch (e) {
        if (!(e instanceof UnsupportedPatternError)) throw e;
        compiled = e;
        this.#spent += pattern.length;
      }
    }
    this.#compiled.set(pattern, compiled);
    return compiled;
  }
}

const patternsBySchema = new WeakMap<JsonObject, StatePatterns>();

function patternsOf(root: JsonObject): StatePatterns {
  let patterns = patternsBySchema.get(root);
  if (patterns === undefined) {
    patterns = new StatePatterns();
    patternsBySchema.set(root, patterns);
  }
  return patterns;
}

/**
 * E_STATE_SCHEMA for each patternProperties pattern of the state schema that the linear-time
 * engine cannot take, pointing at the pattern (`schemaPointer` is where the schema sits in the
 * document), and once when the patterns exceed {@link MAX_STATE_PATTERN_BUDGET} together.
 * Such a pattern then matches no property, so a write it would have allowed is reported too.
 */
export function checkStateSchemaPatterns(
  root: JsonObject,
  schemaPointer: string,
  diagnostics: { push(diagnostic: PendingDiagnostic): unknown },
): void {
  const patterns = patternsOf(root);
  for (const found of findSchemaPatterns(root)) {
    if (found.keyword !== 'patternProperties') continue;
    const compiled = patterns.compiled(found.pattern);
    const pointer = schemaPointer + found.pointer;
    if (compiled instanceof UnsupportedPatternError) {
      diagnostics.push(
        error(
          'E_STATE_SCHEMA',
          pointer,
          `the state schema's patternProperties has a pattern it cannot use: ${compiled.message}`,
          {
            atKey: true,
            hint: 'patterns are matched in linear time (RE2): rewrite this one, or list the properties by name',
          },
        ),
      );
    } else if (compiled === null) {
      diagnostics.push(
        error(
          'E_STATE_SCHEMA',
          pointer,
          `the state schema's patternProperties patterns are larger together than the ${MAX_STATE_PATTERN_BUDGET} characters and steps a plan may bring; this one and those after it are not used`,
          { atKey: true, hint: 'use fewer or smaller patterns, or list the properties by name' },
        ),
      );
      return;
    }
  }
}

/** `{"not": {}}` (how a `false` state schema is kept) allows no value at all. */
function isNothing(schema: JsonObject): boolean {
  const not = schema.not;
  return not === true || (not !== null && typeof not === 'object' && Object.keys(not).length === 0);
}
