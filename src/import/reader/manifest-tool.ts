/**
 * One API of a dataset to one tool of a manifest: its parameters become the `inputSchema`
 * (an object whose `required` list is the data's), its response fields the `outputSchema`. Every
 * response field a dataset lists is one its API returns, so all of them are required: a
 * reference to one is then a plain read, and a dry run's samples hold every field a later call
 * reads. And they are all it returns (`additionalProperties: false`): a reference to a field the
 * API does not list is a mistake the compiler can name; so are the objects inside a response
 * whose fields the data lists (`stats: {type: Object, properties: {...}}`). Extra arguments are not refused (`additionalProperties` is left open): the datasets'
 * APIs take more than they document.
 */
import { setOwnProperty } from '../../language/json/index.js';
import type { ManifestTool } from '../types.js';
import { parameterSchema, type UnmappedType } from './parameter-schema.js';

/** The parts of one API, as the reader found them. */
export interface ApiParts {
  readonly name: string;
  readonly description?: unknown;
  /** Parameter definitions by name (several groups, e.g. query and path parameters, merged). */
  readonly parameters: readonly (Record<string, unknown> | undefined)[];
  /** Required parameter names given as a list (NesTools); NESTFUL marks each parameter instead. */
  readonly requiredList?: unknown;
  /** Response (output) field definitions by name; undefined: the API declares no output. */
  readonly responses: Record<string, unknown> | undefined;
}

/** A type the manifest could not carry, with where it is: `input.x.items` or `output.y`. */
export interface ToolTypeProblem {
  readonly type: string;
  readonly at: string;
}

/** The manifest tool of an API, and the type names left untyped. */
export function manifestTool(api: ApiParts): { tool: ManifestTool; problems: ToolTypeProblem[] } {
  const problems: ToolTypeProblem[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const group of api.parameters) {
    for (const [name, definition] of Object.entries(group ?? {})) {
      const converted = parameterSchema(definition);
      setOwnProperty(properties, name, converted.schema);
      if (converted.required && !required.includes(name)) required.push(name);
      report(problems, `input.${name}`, converted.unmapped);
    }
  }
  if (Array.isArray(api.requiredList)) {
    for (const name of api.requiredList)
      if (typeof name === 'string' && !required.includes(name)) required.push(name);
  }
  const inputSchema: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) inputSchema.required = required;
  const tool: { -readonly [K in keyof ManifestTool]: ManifestTool[K] } = { name: api.name, inputSchema };
  if (typeof api.description === 'string') tool.description = api.description;
  if (api.responses !== undefined) {
    const outputs: Record<string, unknown> = {};
    for (const [name, definition] of Object.entries(api.responses)) {
      const converted = parameterSchema(definition);
      setOwnProperty(outputs, name, converted.schema);
      report(problems, `output.${name}`, converted.unmapped);
    }
    closeListedObjects(outputs);
    tool.outputSchema = {
      type: 'object',
      properties: outputs,
      required: Object.keys(outputs),
      additionalProperties: false,
    };
  }
  return { tool, problems };
}

function report(problems: ToolTypeProblem[], at: string, unmapped: readonly UnmappedType[]): void {
  for (const u of unmapped) problems.push({ type: u.type, at: u.at === '' ? at : `${at}.${u.at}` });
}

/**
 * Closes (`additionalProperties: false`) every object inside the converted responses whose
 * properties the data lists, through `properties` and `items`, with an explicit stack (the
 * converter bounded the depth).
 */
function closeListedObjects(outputs: Record<string, unknown>): void {
  const stack: unknown[] = Object.values(outputs);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const schema = node as Record<string, unknown>;
    const properties = schema.properties;
    if (properties !== null && typeof properties === 'object') {
      schema.additionalProperties = false;
      stack.push(...Object.values(properties));
    }
    if (schema.items !== undefined) stack.push(schema.items);
  }
}
