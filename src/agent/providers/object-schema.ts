import type { JsonSchema } from '../../tools/tool.js';

/** The APIs want an object schema for arguments and answers; `true` (anything) is the closest. */
export function objectSchema(schema: JsonSchema): Record<string, unknown> {
  return typeof schema === 'object' ? schema : { type: 'object', properties: {} };
}
