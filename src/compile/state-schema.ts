/**
 * The state schema as a map of places: may a call write at a path (E_STATE_SCHEMA), and
 * does the schema declare a path (so an unwritten read is "missing at run time", not an
 * error). Deliberately permissive where JSON Schema is too rich to decide statically:
 * combinators count as "any branch allows".
 */
import type { JsonObject } from '../language/document.js';
import type { PathSegment } from '../language/paths.js';
import { splitPointer } from '../language/pointer.js';

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
  let current: Schema[] = [root];
  let declared = true;
  for (let i = 0; i < segments.length; i++) {
    const segment = String(segments[i]);
    const next: Schema[] = [];
    let allowed = false;
    let declaredHere = false;
    const known: string[] = [];
    for (const schema of expand(current, root)) {
      const step = stepInto(schema, segment);
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

function stepInto(schema: Schema, segment: string): { next?: Schema; declared: boolean; known: string[] } {
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
      if (safeTest(pattern, segment)) return { next: sub as Schema, declared: true, known };
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

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** `{"not": {}}` (how a `false` state schema is kept) allows no value at all. */
function isNothing(schema: JsonObject): boolean {
  const not = schema.not;
  return not === true || (not !== null && typeof not === 'object' && Object.keys(not).length === 0);
}
