/**
 * The rules OpenAI's structured outputs enforce on a schema in strict mode (its guide, "Supported
 * schemas"), as a checker: the root is an object schema (not `anyOf`); every object lists every
 * property in `required` and sets `additionalProperties: false`; only the supported keywords
 * appear (`anyOf`, never `oneOf`/`allOf`/`not`/`if`); `format` is one of the listed formats;
 * every sub-schema says what it admits (no empty "anything"); at most 10 levels of nesting,
 * 5000 properties, 1000 enum values and 120,000 characters of names and enum/const values.
 */
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  '$defs',
  '$ref',
]);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Every rule the schema breaks, as `<pointer>: <rule>`; empty when strict mode accepts it. */
export function strictModeViolations(root: unknown): string[] {
  const violations: string[] = [];
  const r = root as Record<string, unknown>;
  if (typeof root !== 'object' || root === null || r.type !== 'object' || 'anyOf' in r) {
    violations.push('/: the root must be an object schema');
  }
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  const stack: { schema: unknown; pointer: string; depth: number }[] = [
    { schema: root, pointer: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { schema, pointer, depth } = stack.pop()!;
    const at = pointer || '/';
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      violations.push(`${at}: a schema must be an object, not ${JSON.stringify(schema)}`);
      continue;
    }
    const s = schema as Record<string, unknown>;
    for (const key of Object.keys(s))
      if (!KEYWORDS.has(key)) violations.push(`${at}: ${key} is not supported`);
    if (!('type' in s) && !('anyOf' in s) && !('enum' in s) && !('const' in s) && !('$ref' in s)) {
      violations.push(`${at}: says nothing about its type`);
    }
    if (typeof s.format === 'string' && !FORMATS.has(s.format)) violations.push(`${at}: format ${s.format}`);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const nests = types.includes('object') || types.includes('array');
    const level = nests ? depth + 1 : depth;
    if (level > 10) violations.push(`${at}: nested ${level} levels deep; the limit is 10`);
    if (types.includes('object') || 'properties' in s) {
      const names = Object.keys((s.properties ?? {}) as object);
      properties += names.length;
      characters += names.reduce((n, name) => n + name.length, 0);
      if (s.additionalProperties !== false) violations.push(`${at}: additionalProperties must be false`);
      const required = Array.isArray(s.required) ? s.required : [];
      if (required.length !== names.length || !names.every((name) => required.includes(name))) {
        violations.push(`${at}: every property must be required`);
      }
      for (const name of names) {
        stack.push({
          schema: (s.properties as Record<string, unknown>)[name],
          pointer: `${pointer}/properties/${name}`,
          depth: level,
        });
      }
    }
    if (types.includes('array')) {
      if (s.items === undefined) violations.push(`${at}: an array must say what its items are`);
      else stack.push({ schema: s.items, pointer: `${pointer}/items`, depth: level });
    }
    if (Array.isArray(s.anyOf)) {
      s.anyOf.forEach((branch, i) => stack.push({ schema: branch, pointer: `${pointer}/anyOf/${i}`, depth }));
    }
    if (Array.isArray(s.enum)) {
      enumValues += s.enum.length;
      characters += s.enum.reduce((n: number, v) => n + String(v).length, 0);
    }
    if ('const' in s) characters += String(s.const).length;
  }
  if (properties > 5000) violations.push(`/: ${properties} properties; the limit is 5000`);
  if (enumValues > 1000) violations.push(`/: ${enumValues} enum values; the limit is 1000`);
  if (characters > 120_000)
    violations.push(`/: ${characters} characters of names and values; the limit is 120000`);
  return violations;
}
