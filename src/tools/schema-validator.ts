/** JSON Schema validation with ajv: draft-07 by default, 2020-12 when a schema says so. */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './tool.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

export type SchemaErrors = ErrorObject[];
export type SchemaValidate = ValidateFunction;

const OPTIONS = {
  // Every violation, not just the first: the model fixes them all in one turn.
  allErrors: true,
  // Tool schemas in the wild carry extra keywords (OpenAPI's `nullable`, `examples`, vendor
  // keys); strict mode would reject the whole tool for them.
  strict: false,
  allowUnionTypes: true,
  validateFormats: true,
} as const;

const DRAFT_2020 = /json-schema\.org\/draft\/2020-12\/schema/;

/** A pair of ajv instances; schemas are compiled once and the validators reused. */
export class SchemaCompiler {
  readonly #draft07 = addFormats(new Ajv(OPTIONS));
  readonly #draft2020 = addFormats(new Ajv2020(OPTIONS) as unknown as Ajv);

  /** Compiles a schema; throws ajv's error (with its message) when the schema is not valid. */
  compile(schema: JsonSchema): SchemaValidate {
    const is2020 =
      typeof schema === 'object' && typeof schema.$schema === 'string' && DRAFT_2020.test(schema.$schema);
    return (is2020 ? this.#draft2020 : this.#draft07).compile(schema);
  }
}
