/**
 * E_OUTPUT_SCHEMA: a request's `schema` must be a JSON Schema that ajv compiles, since the plan
 * loop hands it to the model as the reply's format and the final answer is held to it. Each
 * problem is reported where it is written in the schema, not at the schema as a whole.
 */
import { error, type DiagnosticSink } from '../language/diagnostics.js';
import type { JsonObject } from '../language/document.js';
import { schemaProblems } from '../tools/schema-validator.js';

export function checkOutputSchema(
  schema: JsonObject | boolean,
  pointer: string,
  diagnostics: DiagnosticSink,
): void {
  for (const problem of schemaProblems(schema)) {
    diagnostics.push(
      error(
        'E_OUTPUT_SCHEMA',
        pointer + problem.pointer,
        `the request's schema${problem.pointer ? ` at ${problem.pointer}` : ''} is not a usable JSON Schema: ${problem.message}`,
        {
          hint: 'fix the schema so that it is a JSON Schema (draft-07, or 2020-12 with "$schema"): "type" names one of the JSON types, "required" is an array of names, every "$ref" resolves',
        },
      ),
    );
  }
}
