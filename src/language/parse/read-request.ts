/**
 * A request `{"schema": ..., "context": [...]}`: what a caller sends the plan loop, the schema
 * its reply must match and the context it starts from. The context is read as the document's
 * root would be (a bare call array, or input, state, tool and plan messages), at `/context`, so
 * every diagnostic inside it points at its place in the whole text. Unlike a context array
 * given alone, a request's context may have no plan message: the first request of a loop has
 * no plan yet, and then the document has no calls.
 *
 * The schema is bounded like any value the compiler walks; whether it is a usable JSON Schema
 * is for compile to say (E_OUTPUT_SCHEMA), which has ajv at hand.
 */
import { isMessageLike, readContext, readContextMessages, unknownKeys } from './context-messages.js';
import { error, type DiagnosticSink } from '../diagnostics.js';
import { describeJson, isJsonObject, type JsonObject, type PlanDocument } from '../document.js';
import { checkJson } from '../json/index.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { SourceText } from '../text/index.js';

const REQUEST_KEYS = new Set(['schema', 'context']);

const REQUEST_HINT =
  'a request is {"schema": <JSON Schema of the reply>, "context": [{"type": "input", ...}, {"type": "plan", "plan": [...]}]}';

/** An object with `context` or `schema` and no message `type`: meant as a request. */
export function isRequestLike(value: JsonObject): boolean {
  return ('context' in value || 'schema' in value) && !('type' in value) && !('calls' in value);
}

/** Reads a request; null (with diagnostics) when its context cannot be read. */
export function readRequest(
  value: JsonObject,
  source: SourceText,
  diagnostics: DiagnosticSink,
  limits: Limits,
): PlanDocument | null {
  unknownKeys(value, REQUEST_KEYS, '', 'request', diagnostics);
  const schema = readSchema(value, diagnostics, limits);
  const context = value.context;
  if (!Array.isArray(context)) {
    diagnostics.push(
      error(
        'E_SHAPE',
        context === undefined ? '' : '/context',
        context === undefined
          ? 'a request needs "context": the array of messages (or calls) the loop starts from'
          : `a request's "context" must be an array of messages or calls, but found ${describeJson(context)}`,
        { hint: REQUEST_HINT },
      ),
    );
    return null;
  }
  const inner =
    context.length > 0 && context.every(isMessageLike)
      ? readContext(context, source, diagnostics, limits, false, '/context')
      : ({ shape: 'calls', mode: 'eager', calls: context, callsPointer: '/context', source } as const);
  if (!inner) return null;
  return { ...inner, shape: 'request', ...schema };
}

/**
 * The request's schema and what the final answer must match: `properties.output` of a schema
 * of the whole reply (one with `properties.calls`), else the schema itself.
 */
function readSchema(
  request: JsonObject,
  diagnostics: DiagnosticSink,
  limits: Limits,
): Pick<PlanDocument, 'schema' | 'schemaPointer' | 'outputSchema'> {
  const schema = request.schema;
  if (schema === undefined) return {};
  const checked = checkJson(schema, { limits });
  if ('problem' in checked) {
    const { problem } = checked;
    diagnostics.push(
      error(
        'E_LIMIT',
        `/schema${problem.pointer}`,
        `the request's schema${problem.pointer ? ` at ${problem.pointer}` : ''} ${problem.message}`,
        { hint: problem.hint },
      ),
    );
    return {};
  }
  if (!isJsonObject(schema) && typeof schema !== 'boolean') {
    diagnostics.push(
      error(
        'E_OUTPUT_SCHEMA',
        '/schema',
        `a request's "schema" must be a JSON Schema (an object or a boolean), but found ${describeJson(schema)}`,
        {
          hint: 'give the schema of the reply, {"type": "object", "properties": {"calls": {"type": "array"}, "output": {...}}}, or of the answer alone',
        },
      ),
    );
    return {};
  }
  const found = { schema, schemaPointer: '/schema' };
  const properties = isJsonObject(schema) ? schema.properties : undefined;
  if (!isJsonObject(properties) || !('calls' in properties)) return { ...found, outputSchema: schema };
  const output = properties.output;
  return isJsonObject(output) || typeof output === 'boolean' ? { ...found, outputSchema: output } : found;
}

/**
 * solve()'s context: a request, or a context array whose plan message may be missing (see
 * readContextMessages).
 */
export function readRequestOrContext(
  value: unknown,
  source: SourceText,
  diagnostics: DiagnosticSink,
  limits: Limits = DEFAULT_LIMITS,
): PlanDocument | null {
  if (isJsonObject(value) && isRequestLike(value)) return readRequest(value, source, diagnostics, limits);
  return readContextMessages(value, source, diagnostics, limits);
}
