/**
 * A dataset's parameter (or response) definition to a JSON Schema. The datasets write them in
 * a loose dialect of JSON Schema: Python or capitalised type names (`str`, `Number`), `required`
 * as a boolean on the parameter itself, the allowed values as `allowed_values` or
 * `possible_values`, the default as `default_value`; GLAIVE's parameters nest `items` and
 * `properties`. What maps is kept (`type`, `description`, `enum`, `default`, `items`,
 * `properties` with their `required` list); anything else (`example`, `format`) is left out, so
 * a format hint in the data never turns a gold argument into an error. A type name with no JSON
 * Schema type is not guessed: that level is left untyped and reported. The walk is a loop over
 * an explicit stack, bounded in depth, since a spec file is data too.
 */
import { setOwnProperty } from '../../language/json/index.js';
import { jsonSchemaType } from './dataset-types.js';
import { isRecord } from './problems.js';

/** Deepest parameter definition converted; deeper levels are left untyped and reported. */
export const MAX_SCHEMA_DEPTH = 32;

/** A type name the converter could not map, and where under the parameter it was. */
export interface UnmappedType {
  /** The type as the data writes it (JSON text of it when it is not a string). */
  readonly type: string;
  /** Where under the parameter: `""` for the parameter itself, `items`, `properties.x`. */
  readonly at: string;
}

/** The JSON Schema of one definition, and the type names it could not map. */
export interface ConvertedSchema {
  readonly schema: Record<string, unknown>;
  readonly unmapped: readonly UnmappedType[];
  /** Whether the definition says it is required (`required: true`, not `optional: true`). */
  readonly required: boolean;
}

interface Frame {
  readonly from: unknown;
  readonly to: Record<string, unknown>;
  readonly at: string;
  readonly depth: number;
}

/** Converts one parameter definition `{type, description, required, ...}`. */
export function parameterSchema(definition: unknown): ConvertedSchema {
  const schema: Record<string, unknown> = {};
  const unmapped: UnmappedType[] = [];
  const stack: Frame[] = [{ from: definition, to: schema, at: '', depth: 1 }];
  while (stack.length > 0) {
    const { from, to, at, depth } = stack.pop()!;
    if (!isRecord(from)) continue;
    if (depth > MAX_SCHEMA_DEPTH) {
      unmapped.push({ type: `nested past ${MAX_SCHEMA_DEPTH} levels`, at });
      continue;
    }
    convertLevel(from, to, at, unmapped);
    if (isRecord(from.items)) {
      const items: Record<string, unknown> = {};
      to.items = items;
      stack.push({ from: from.items, to: items, at: join(at, 'items'), depth: depth + 1 });
    }
    if (isRecord(from.properties)) {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [name, child] of Object.entries(from.properties)) {
        const converted: Record<string, unknown> = {};
        setOwnProperty(properties, name, converted);
        if (isRecord(child) && child.required === true) required.push(name);
        stack.push({ from: child, to: converted, at: join(at, `properties.${name}`), depth: depth + 1 });
      }
      to.properties = properties;
      if (required.length > 0) to.required = required;
      else if (Array.isArray(from.required) && from.required.every((r) => typeof r === 'string')) {
        to.required = [...(from.required as string[])];
      }
    }
  }
  const given = isRecord(definition) ? definition : {};
  return { schema, unmapped, required: given.required === true && given.optional !== true };
}

/** `type`, `description`, `enum` and `default` of one level. */
function convertLevel(
  from: Record<string, unknown>,
  to: Record<string, unknown>,
  at: string,
  unmapped: UnmappedType[],
): void {
  const allowed = [from.enum, from.allowed_values, from.possible_values].find(isScalarList);
  if (from.type !== undefined) {
    const types = Array.isArray(from.type) ? from.type : [from.type];
    const mapped = types.map(jsonSchemaType);
    if (mapped.every((t) => t !== undefined) && mapped.length > 0)
      to.type = mapped.length === 1 ? mapped[0] : mapped;
    // "Enum" says no more than the list of values it comes with.
    else if (!(allowed && types.length === 1 && String(types[0]).toLowerCase() === 'enum')) {
      unmapped.push({ type: typeof from.type === 'string' ? from.type : JSON.stringify(from.type), at });
    }
  }
  if (typeof from.description === 'string') to.description = from.description;
  if (allowed) to.enum = [...allowed];
  const fallback = 'default' in from ? from.default : from.default_value;
  if (fallback !== undefined && (fallback === null || typeof fallback !== 'object')) to.default = fallback;
}

function isScalarList(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 10_000 &&
    value.every((v) => v === null || (typeof v !== 'object' && typeof v !== 'function'))
  );
}

function join(at: string, part: string): string {
  return at === '' ? part : `${at}.${part}`;
}
