/**
 * What each grammar-based decoder's JSON-Schema converter turns into grammar, as a checker:
 * `grammarEngineReport(schema, engine)` lists every rule of that engine the schema breaks
 * (`violations`) and every keyword it carries that the engine reads but does not enforce
 * (`unenforced`). Written from the engines' own docs and code (each rule names its source):
 *
 * - llama.cpp: grammars/README.md, "JSON Schemas → GBNF" and its list of known limitations, and
 *   common/json-schema-to-grammar.cpp `visit()`.
 * - node-llama-cpp: src/utils/gbnfJson/types.ts (the `GbnfJsonSchema` it accepts) and
 *   src/utils/gbnfJson/utils/getGbnfJsonTerminalForGbnfJsonSchema.ts (how each is read).
 * - xgrammar (vLLM's default backend): cpp/json_schema_converter.cc, and vLLM's
 *   vllm/v1/structured_output/backend_xgrammar.py `has_xgrammar_unsupported_json_features`
 *   (what makes vLLM refuse xgrammar for a request, or fall back to another backend).
 * - Outlines: outlines-core src/json_schema/parsing.rs (`to_regex` and the `parse_*` methods).
 *
 * Patterns are checked with the regex rules of src/compile/plan-schema/grammar-regex.ts.
 */
import { grammarPatternViolations, type PatternEngine } from '../../src/compile/plan-schema/grammar-regex.js';

export const ENGINES = ['llama.cpp', 'node-llama-cpp', 'xgrammar', 'outlines'] as const;
export type Engine = (typeof ENGINES)[number];

/** Annotations every converter skips without harm. */
const ANNOTATIONS = ['description', 'title'];

/** Keywords each converter turns into grammar (for the kinds of schema planSchema prints). */
const ENFORCED: Record<Engine, ReadonlySet<string>> = {
  // json-schema-to-grammar.cpp visit(): $ref, oneOf/anyOf, type lists, const, enum, object
  // (properties, required, additionalProperties), items/minItems/maxItems, pattern, format,
  // minLength/maxLength; minimum & co. on integers only (README: "not number").
  'llama.cpp': new Set([
    '$ref',
    '$defs',
    'oneOf',
    'anyOf',
    'type',
    'const',
    'enum',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'pattern',
    'format',
    'minLength',
    'maxLength',
  ]),
  // types.ts: GbnfJsonConstSchema, EnumSchema, OneOfSchema (no anyOf), BasicStringSchema
  // (minLength, maxLength; no pattern), FormatStringSchema, ObjectSchema (properties,
  // additionalProperties, min/maxProperties; `required` "is always set to all keys in
  // properties": enforced when it lists them all, which a rule below demands), ArraySchema
  // (items, prefixItems, minItems, maxItems), RefSchema (`#/$defs/...`).
  'node-llama-cpp': new Set([
    '$ref',
    '$defs',
    'oneOf',
    'type',
    'const',
    'enum',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'format',
    'minLength',
    'maxLength',
  ]),
  // json_schema_converter.cc Parse*: all of these (oneOf: exact when ParseOneOf proves the
  // branches disjoint, else read as anyOf with a warning); vLLM refuses xgrammar only for
  // multipleOf, uniqueItems/contains, unknown formats and pattern|format beside minLength|maxLength.
  xgrammar: new Set([
    '$ref',
    '$defs',
    'oneOf',
    'anyOf',
    'type',
    'const',
    'enum',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'pattern',
    'format',
    'minLength',
    'maxLength',
  ]),
  // parsing.rs to_regex(): properties (+ required), anyOf, oneOf, enum, const, $ref, type;
  // parse_string_type: minLength/maxLength, else pattern, else format; arrays: items,
  // minItems, maxItems; objects without properties: additionalProperties.
  outlines: new Set([
    '$ref',
    '$defs',
    'oneOf',
    'anyOf',
    'type',
    'const',
    'enum',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'pattern',
    'format',
    'minLength',
    'maxLength',
  ]),
};

/** Keywords an engine reads without enforcing (the compiler checks them after decoding). */
const UNENFORCED: Record<Engine, ReadonlySet<string>> = {
  'llama.cpp': new Set(),
  // GbnfJsonBasicStringSchema has no pattern: the string is any string.
  'node-llama-cpp': new Set(['pattern']),
  xgrammar: new Set(),
  outlines: new Set(),
};

/** String formats each converter has a grammar for. */
const FORMATS: Record<Engine, ReadonlySet<string>> = {
  // STRING_FORMAT_RULES (+ uuid); README: "string formats lack uri, email".
  'llama.cpp': new Set(['date', 'time', 'date-time', 'uuid']),
  // GbnfJsonFormatStringSchema: "date-time" | "time" | "date".
  'node-llama-cpp': new Set(['date', 'time', 'date-time']),
  // vLLM's STRING_SUPPORTED_FORMATS (from xgrammar's converter).
  xgrammar: new Set([
    'email',
    'date',
    'time',
    'date-time',
    'duration',
    'ipv4',
    'ipv6',
    'hostname',
    'uuid',
    'uri',
    'uri-reference',
    'uri-template',
    'json-pointer',
    'relative-json-pointer',
  ]),
  // types.rs FormatType::from_str.
  outlines: new Set(['date-time', 'date', 'time', 'uuid', 'uri', 'email']),
};

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

export interface EngineReport {
  readonly violations: string[];
  readonly unenforced: string[];
}

/** Every rule of `engine` the schema breaks, and what it carries that `engine` does not enforce. */
export function grammarEngineReport(root: unknown, engine: Engine): EngineReport {
  const violations: string[] = [];
  const unenforced = new Set<string>();
  const rootObject = (root ?? {}) as Record<string, unknown>;
  const defs = (rootObject.$defs ?? {}) as Record<string, unknown>;
  const stack: { schema: unknown; pointer: string; inDefinition: boolean }[] = [
    { schema: root, pointer: '', inDefinition: false },
  ];
  while (stack.length > 0) {
    const { schema, pointer, inDefinition } = stack.pop()!;
    const at = pointer || '/';
    const fail = (rule: string) => violations.push(`${at}: ${rule}`);
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      fail(`a schema must be an object, not ${JSON.stringify(schema)}`);
      continue;
    }
    const s = schema as Record<string, unknown>;
    for (const key of Object.keys(s)) {
      if (ANNOTATIONS.includes(key)) continue;
      if (UNENFORCED[engine].has(key)) unenforced.add(key);
      else if (!ENFORCED[engine].has(key)) fail(`${key} is not turned into grammar`);
      if (key === '$defs' && pointer !== '') fail('$defs only at the root (refs resolve from the root)');
    }
    // Outlines: to_regex() errors on a schema with none of these; node-llama-cpp turns it into
    // null (no type: GbnfNull); `{}` is "any" to llama.cpp and Outlines but null to node-llama-cpp.
    if (!['type', 'const', 'enum', 'oneOf', 'anyOf', '$ref'].some((k) => k in s)) {
      fail('says nothing about its type (node-llama-cpp reads it as null, Outlines refuses it)');
    }
    const choice = 'oneOf' in s ? 'oneOf' : 'anyOf' in s ? 'anyOf' : undefined;
    if (choice !== undefined) {
      // node-llama-cpp: oneOf is checked before properties and type; llama.cpp: "Can't mix
      // properties w/ anyOf / oneOf in the same type" (issue 7703); Outlines: properties first.
      const siblings = Object.keys(s).filter((k) => k !== choice && !ANNOTATIONS.includes(k));
      if (siblings.length > 0) fail(`${choice} beside ${siblings.join(', ')}`);
      if (!Array.isArray(s[choice]) || (s[choice] as unknown[]).length === 0)
        fail(`${choice} must be a non-empty array`);
    }
    if (Array.isArray(s.type)) {
      // node-llama-cpp: a type list is GbnfJsonBasicSchema, of immutable (scalar) types only.
      if (engine === 'node-llama-cpp' && !s.type.every((t) => SCALARS.has(t as string))) {
        fail('a type list with object or array');
      }
    }
    if ('$ref' in s) {
      const ref = s.$ref;
      const name = typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice(8) : undefined;
      // node-llama-cpp: only "#/$defs/..." refs, defined in scope; llama.cpp README: nested $refs are broken.
      if (name === undefined || !(name in defs))
        fail(`$ref ${JSON.stringify(ref)} is not a #/$defs/ entry of the root`);
      if (inDefinition) fail('a $ref inside a definition (llama.cpp: nested $refs are broken)');
      if (Object.keys(s).some((k) => k !== '$ref' && !ANNOTATIONS.includes(k)))
        fail('$ref beside other keywords');
    }
    if (typeof s.format === 'string' && !FORMATS[engine].has(s.format)) fail(`format ${s.format}`);
    const lengths = 'minLength' in s || 'maxLength' in s;
    if (('pattern' in s || 'format' in s) && lengths) {
      // vLLM: "xgrammar compiles the pattern/format side and silently drops minLength/maxLength";
      // Outlines: parse_string_type reads minLength/maxLength first and ignores the pattern.
      fail('pattern or format beside minLength/maxLength');
    }
    if ('pattern' in s && 'format' in s) fail('pattern beside format (each converter keeps only one)');
    if (typeof s.pattern === 'string' && engine !== 'node-llama-cpp') {
      for (const rule of grammarPatternViolations(s.pattern, engine as PatternEngine))
        fail(`pattern: ${rule}`);
    }
    if (s.type === 'object' || 'properties' in s) {
      const names = Object.keys((s.properties ?? {}) as object);
      const required = Array.isArray(s.required) ? s.required : [];
      // node-llama-cpp: "`required` is always set to all keys in `properties`".
      if (names.some((n) => !required.includes(n))) fail('a property not in required');
      // Outlines: parse_properties ignores additionalProperties beside properties (closed).
      if (names.length > 0 && s.additionalProperties !== false) fail('properties beside an open object');
      // Outlines: parse_object_type reads additionalProperties as a schema; `false` is not one.
      if (engine === 'outlines' && !('properties' in s) && s.additionalProperties === false) {
        fail('additionalProperties: false without properties');
      }
      // node-llama-cpp: additionalProperties defaults to false (JSON Schema: true).
      if (names.length === 0 && !('additionalProperties' in s))
        fail('an object without properties must say additionalProperties');
    }
    // llama.cpp README: prefixItems is broken; node-llama-cpp and llama.cpp: no uniqueItems.
    if (Array.isArray(s.items)) fail('items as an array (tuple)');
    push(stack, s, pointer, inDefinition);
  }
  return { violations, unenforced: [...unenforced].sort() };
}

function push(
  stack: { schema: unknown; pointer: string; inDefinition: boolean }[],
  s: Record<string, unknown>,
  pointer: string,
  inDefinition: boolean,
): void {
  const child = (value: unknown, path: string, definition = inDefinition) =>
    stack.push({ schema: value, pointer: `${pointer}/${path}`, inDefinition: definition });
  for (const key of ['properties', '$defs']) {
    const map = s[key];
    if (typeof map === 'object' && map !== null && !Array.isArray(map)) {
      for (const [name, value] of Object.entries(map))
        child(value, `${key}/${name}`, key === '$defs' || inDefinition);
    }
  }
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((value, i) => child(value, `${key}/${i}`));
  }
  if (typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items)) child(s.items, 'items');
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
    child(s.additionalProperties, 'additionalProperties');
  }
}
