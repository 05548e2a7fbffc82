/** The schemas/ folder, compiled with ajv's draft 2020-12 build and formats. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMAS } from '../fixtures/fixtures.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

export const SCHEMA_FILES = [
  'plan.schema.json',
  'tool-manifest.schema.json',
  'validate-output.schema.json',
  'simulate-output.schema.json',
  'eval-output.schema.json',
  'explain-output.schema.json',
] as const;
export type SchemaFile = (typeof SCHEMA_FILES)[number];

export function readSchema(file: SchemaFile): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as Record<string, unknown>;
}

/** A strict ajv: unknown keywords, ambiguous types and bad formats in our own schemas are errors. */
export function createAjv(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: true, allErrors: true }));
}

const ajv = createAjv();
const validators = new Map<SchemaFile, ValidateFunction>();

export function validator(file: SchemaFile): ValidateFunction {
  let validate = validators.get(file);
  if (!validate) {
    validate = ajv.compile(readSchema(file));
    validators.set(file, validate);
  }
  return validate;
}

/** Validates and returns ajv's errors as short strings, so a failing test says why. */
export function errorsOf(file: SchemaFile, value: unknown): string[] {
  const validate = validator(file);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
