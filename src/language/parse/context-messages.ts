/**
 * The messages of a context array (input, state, tool and plan messages) and of a lone plan
 * message, read into a {@link PlanDocument}: unknown keys, a misplaced wrapper, a second plan
 * and values over the limits are reported where they are written.
 */
import { error, type DiagnosticSink } from '../diagnostics.js';
import {
  describeJson,
  type ExecutionMode,
  isJsonObject,
  type JsonObject,
  type PlanDocument,
  type ToolMention,
} from '../document.js';
import { checkJson } from '../json/index.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { joinPointer } from '../pointer.js';
import { setOwnProperty } from '../json/index.js';
import type { SourceText } from '../text/index.js';

/** The prefix a context's tool message may put before a tool's name: `Tool.detectLanguage`. */
const TOOL_PREFIX = 'Tool.';

const PLAN_MESSAGE_KEYS = new Set(['type', 'mode', 'plan']);
const TOOL_MESSAGE_KEYS = new Set(['type', 'tool']);

/** A context message has a string `type` and no `_tool` (a call with a `type` argument still has `_tool`). */
export function isMessageLike(value: unknown): boolean {
  return isJsonObject(value) && typeof value.type === 'string' && !('_tool' in value);
}

export function readPlanMessage(
  message: JsonObject,
  pointer: string,
  diagnostics: DiagnosticSink,
): { mode: ExecutionMode; calls: unknown[]; callsPointer: string } | null {
  if (message.plan === undefined && Array.isArray(message.calls)) {
    // A solution's key in a plan message: say so once, rather than "unknown key" and "needs plan".
    diagnostics.push(
      error(
        'E_SHAPE',
        joinPointer(pointer, 'calls'),
        'a plan message holds its calls in "plan", not "calls"',
        {
          atKey: true,
          hint: 'rename "calls" to "plan": {"type": "plan", "plan": [{"_tool": ...}]}',
        },
      ),
    );
    return null;
  }
  unknownKeys(message, PLAN_MESSAGE_KEYS, pointer, 'plan message', diagnostics);
  let mode: ExecutionMode = 'eager';
  if (message.mode !== undefined) {
    if (message.mode === 'eager' || message.mode === 'lazy') mode = message.mode;
    else {
      diagnostics.push(
        error(
          'E_SHAPE',
          joinPointer(pointer, 'mode'),
          `mode must be "eager" or "lazy", not ${describeJson(message.mode)}`,
          {
            hint: 'leave mode out for eager',
          },
        ),
      );
    }
  }
  if (!Array.isArray(message.plan)) {
    diagnostics.push(
      error(
        'E_SHAPE',
        joinPointer(pointer, 'plan'),
        `a plan message needs "plan": an array of calls, but found ${describeJson(message.plan)}`,
        {
          hint: '{"type": "plan", "plan": [{"_tool": ...}]}',
        },
      ),
    );
    return null;
  }
  return { mode, calls: message.plan, callsPointer: joinPointer(pointer, 'plan') };
}

/**
 * Reads a context array (input, state, tool and plan messages) whose plan message may be
 * missing, as the context of a first request is: then the document has no calls (and
 * `callsPointer` points at the array). Anything else than an array of messages is E_SHAPE.
 */
export function readContextMessages(
  value: unknown,
  source: SourceText,
  diagnostics: DiagnosticSink,
  limits: Limits = DEFAULT_LIMITS,
): PlanDocument | null {
  if (Array.isArray(value) && value.every(isMessageLike)) {
    return readContext(value, source, diagnostics, limits, false);
  }
  diagnostics.push(
    error('E_SHAPE', '', `expected a context array of messages but found ${describeJson(value)}`, {
      hint: 'a context is an array of messages: [{"type": "input", ...}, {"type": "state", ...}, {"type": "tool", "tool": "..."}, {"type": "plan", "plan": [...]}]',
    }),
  );
  return null;
}

/**
 * Reads the messages of a context array at `base` (the document's root, or a request's
 * `/context`): every pointer, so every position, is the message's place in the whole text.
 */
export function readContext(
  messages: unknown[],
  source: SourceText,
  diagnostics: DiagnosticSink,
  limits: Limits,
  planRequired: boolean,
  base = '',
): PlanDocument | null {
  let plan: { mode: ExecutionMode; calls: unknown[]; callsPointer: string } | null = null;
  let planSeen = false;
  const tools: ToolMention[] = [];
  let input: JsonObject | undefined;
  let state: JsonObject | undefined;
  let stateSchema: JsonObject | undefined;
  let stateSchemaPointer: string | undefined;
  messages.forEach((message, index) => {
    const m = message as JsonObject;
    const pointer = joinPointer(base, index);
    switch (m.type) {
      case 'plan':
        if (planSeen) {
          diagnostics.push(
            error(
              'E_SHAPE',
              joinPointer(pointer, 'type'),
              'a context array has one plan message; this is a second',
              { hint: 'merge the calls into one plan' },
            ),
          );
          return;
        }
        planSeen = true;
        plan = readPlanMessage(m, pointer, diagnostics);
        return;
      case 'input':
        if (wrappedValues(m, 'input', pointer, diagnostics)) return;
        input = merged(input, withinLimits(withoutKey(m, 'type'), pointer, limits, diagnostics));
        return;
      case 'state': {
        if (wrappedValues(m, 'state', pointer, diagnostics)) return;
        const { schema, ...values } = withoutKey(m, 'type');
        state = merged(state, withinLimits(values, pointer, limits, diagnostics));
        if (schema !== undefined) {
          // A schema is walked by the compiler and by ajv: bounded like any value.
          const checked = checkJson(schema, { limits });
          if ('problem' in checked) {
            const { problem } = checked;
            const at = joinPointer(pointer, 'schema') + problem.pointer;
            diagnostics.push(
              error(
                'E_LIMIT',
                at,
                `the state schema${problem.pointer ? ` at ${problem.pointer}` : ''} ${problem.message}`,
                {
                  hint: problem.hint,
                },
              ),
            );
          } else if (isJsonObject(schema) || typeof schema === 'boolean') {
            stateSchema = isJsonObject(schema) ? schema : schema ? {} : { not: {} };
            stateSchemaPointer = joinPointer(pointer, 'schema');
          } else {
            diagnostics.push(
              error('E_SHAPE', joinPointer(pointer, 'schema'), 'a state schema must be a JSON Schema object'),
            );
          }
        }
        return;
      }
      case 'tool': {
        const mention = readToolMessage(m, pointer, diagnostics);
        if (mention) tools.push(mention);
        return;
      }
      default:
        diagnostics.push(
          error('E_SHAPE', joinPointer(pointer, 'type'), `unknown message type "${String(m.type)}"`, {
            hint: 'a context array holds "input", "state", "tool" and "plan" messages',
          }),
        );
    }
  });
  const extras = {
    ...(input && { input }),
    ...(state && { state }),
    ...(stateSchema && { stateSchema, stateSchemaPointer }),
    ...(tools.length > 0 && { tools }),
    source,
  };
  if (!planSeen && !planRequired) {
    return { shape: 'context', mode: 'eager', calls: [], callsPointer: base, ...extras };
  }
  if (!planSeen) {
    diagnostics.push(
      error('E_SHAPE', base, 'a context array needs a plan message', {
        hint: 'add {"type": "plan", "plan": [...]}',
      }),
    );
    return null;
  }
  if (!plan) return null;
  const found = plan as { mode: ExecutionMode; calls: unknown[]; callsPointer: string };
  return {
    shape: 'context',
    mode: found.mode,
    calls: found.calls,
    callsPointer: found.callsPointer,
    ...extras,
  };
}

/**
 * True (with E_SHAPE) when an input or state message wraps its values in a member named after
 * its type, `{"type": "input", "input": {"city": "Paris"}}`: read as written, that would make
 * `†input.input.city` of what the model means as `†input.city`. Only a lone wrapper object is
 * taken for one (a state message may keep its schema beside it); a member of that name among
 * others is a value like any.
 */
function wrappedValues(
  message: JsonObject,
  type: 'input' | 'state',
  pointer: string,
  diagnostics: DiagnosticSink,
): boolean {
  const inner = message[type];
  if (!isJsonObject(inner)) return false;
  for (const key of Object.keys(message)) {
    if (key !== 'type' && key !== type && !(type === 'state' && key === 'schema')) return false;
  }
  const example = type === 'input' ? '{"type": "input", "city": "Paris"}' : '{"type": "state", "count": 0}';
  diagnostics.push(
    error(
      'E_SHAPE',
      joinPointer(pointer, type),
      `${type === 'input' ? 'an' : 'a'} ${type} message holds its values beside "type", not inside "${type}"`,
      {
        atKey: true,
        hint: `move the members of "${type}" up one level: ${example}${type === 'state' ? ' (with "schema" beside them, if any)' : ''}`,
      },
    ),
  );
  return true;
}

/** `{"type": "tool", "tool": "Tool.name"}`: the name, or null (with a diagnostic) when there is none. */
function readToolMessage(
  message: JsonObject,
  pointer: string,
  diagnostics: DiagnosticSink,
): ToolMention | null {
  unknownKeys(message, TOOL_MESSAGE_KEYS, pointer, 'tool message', diagnostics);
  const at = joinPointer(pointer, 'tool');
  const written = message.tool;
  const name =
    typeof written !== 'string'
      ? ''
      : written.startsWith(TOOL_PREFIX)
        ? written.slice(TOOL_PREFIX.length)
        : written;
  if (name === '') {
    diagnostics.push(
      error(
        'E_SHAPE',
        written === undefined ? pointer : at,
        `a tool message needs "tool": a tool's name, but found ${describeJson(written)}`,
        { hint: '{"type": "tool", "tool": "search"} (or "Tool.search")' },
      ),
    );
    return null;
  }
  return { name, pointer: at };
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  // A "__proto__" key from JSON is data: assigned, it would set the copy's prototype instead.
  for (const k of Object.keys(object)) if (k !== key) setOwnProperty(out, k, object[k]);
  return out;
}

export function unknownKeys(
  object: JsonObject,
  allowed: ReadonlySet<string>,
  pointer: string,
  what: string,
  diagnostics: DiagnosticSink,
) {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key)) {
      diagnostics.push(
        error('E_SHAPE', joinPointer(pointer, key), `unknown key "${key}" in a ${what}`, {
          hint: `a ${what} has only ${[...allowed].map((k) => `"${k}"`).join(', ')}`,
        }),
      );
    }
  }
}

/**
 * The members of an input or state message, each checked against the limits as a value one level
 * inside the input or state object; a member over a limit is reported (E_LIMIT) and left out.
 */
function withinLimits(
  values: JsonObject,
  pointer: string,
  limits: Limits,
  diagnostics: DiagnosticSink,
): JsonObject {
  const keys = Object.keys(values);
  if (keys.length > limits.maxKeys) {
    diagnostics.push(
      error('E_LIMIT', pointer, `the message has ${keys.length} members; the limit is ${limits.maxKeys}`, {
        hint: 'split the values over several messages, or raise limits.maxKeys',
      }),
    );
    return {};
  }
  let kept: JsonObject | undefined;
  for (const key of keys) {
    const checked = checkJson(values[key], { limits, depth: 1 });
    if (!('problem' in checked)) continue;
    const { problem } = checked;
    diagnostics.push(
      error(
        'E_LIMIT',
        joinPointer(pointer, key) + problem.pointer,
        `"${key}"${problem.pointer ? ` at ${problem.pointer}` : ''} ${problem.message}`,
        {
          hint: problem.hint,
        },
      ),
    );
    kept ??= { ...values };
    delete kept[key];
  }
  return kept ?? values;
}

/** Messages merge in order, later keys winning; a lone message's values are taken as they are. */
function merged(earlier: JsonObject | undefined, later: JsonObject): JsonObject {
  return earlier === undefined ? later : { ...earlier, ...later };
}
