/** One raw call object to a checked call: meta keys, tool name, references, output path. */
import { error, type PendingDiagnostic, warning } from '../language/diagnostics.js';
import { describeJson, isJsonObject, type JsonObject, type PlanMode } from '../language/document.js';
import { joinPointer } from '../language/pointer.js';
import { WILDCARD } from '../language/paths.js';
import { parseExpression, parseString } from '../language/reference.js';
import type { ArgumentReference, OutputPath } from './types.js';

const META_KEYS = new Set(['_tool', '_outputPath', '_output', '_id']);

/** A call after its own checks, before it is placed in the graph. */
export interface CallSpec {
  readonly index: number;
  readonly id: string;
  /** The tool name, or null when `_tool` is missing or not a string. */
  readonly tool: string | null;
  readonly pointer: string;
  readonly args: JsonObject;
  readonly refs: ArgumentReference[];
  readonly literals: string[];
  readonly outputPath: OutputPath | null;
  readonly hasOutput: boolean;
  readonly output?: unknown;
}

export interface ReadCallOptions {
  readonly index: number;
  readonly pointer: string;
  readonly mode: PlanMode;
  readonly maxDepth: number;
}

/** Checks one call on its own. Returns null when it is not even an object. */
export function readCall(raw: unknown, options: ReadCallOptions, diagnostics: PendingDiagnostic[]): CallSpec | null {
  const { index, pointer } = options;
  if (!isJsonObject(raw)) {
    diagnostics.push(
      error('E_SHAPE', pointer, `call ${index} must be an object, not ${describeJson(raw)}`, {
        hint: 'a call looks like {"_tool": "name", "arg": "value", "_outputPath": "†state.result"}',
      }),
    );
    return null;
  }
  let id = String(index);
  if (raw._id !== undefined) {
    if (typeof raw._id === 'string' && raw._id !== '') id = raw._id;
    else {
      diagnostics.push(
        error('E_SHAPE', joinPointer(pointer, '_id'), `_id must be a non-empty string, not ${describeJson(raw._id)}`, { call: id }),
      );
    }
  }
  let tool: string | null = null;
  if (typeof raw._tool === 'string' && raw._tool !== '') tool = raw._tool;
  else {
    diagnostics.push(
      error(
        'E_NO_TOOL',
        raw._tool === undefined ? pointer : joinPointer(pointer, '_tool'),
        raw._tool === undefined ? `call ${id} has no _tool` : `_tool must be a tool name, not ${describeJson(raw._tool)}`,
        { call: id, hint: 'every call names its tool: {"_tool": "search", ...}' },
      ),
    );
  }

  const args: JsonObject = {};
  for (const key of Object.keys(raw)) {
    if (!key.startsWith('_')) {
      args[key] = raw[key];
    } else if (!META_KEYS.has(key)) {
      const near = [...META_KEYS].find((m) => m.toLowerCase() === key.toLowerCase());
      diagnostics.push(
        error('E_UNKNOWN_META', joinPointer(pointer, key), `unknown meta key "${key}"`, {
          call: id,
          atKey: true,
          hint: near
            ? `did you mean "${near}"?`
            : 'keys starting with _ are reserved: _tool, _outputPath, _output, _id; rename the argument without the underscore',
        }),
      );
    }
  }

  const hasOutput = Object.hasOwn(raw, '_output');
  if (hasOutput && options.mode === 'lazy') {
    diagnostics.push(
      error('E_LAZY_OUTPUT', joinPointer(pointer, '_output'), 'a lazy plan cannot carry _output', {
        call: id,
        atKey: true,
        hint: 'in lazy mode the latent tool runs after approval; remove _output, or make the plan eager',
      }),
    );
  }

  const { refs, literals } = scanArguments(args, pointer, id, options.maxDepth, diagnostics);
  const outputPath = raw._outputPath === undefined ? null : readOutputPath(raw._outputPath, joinPointer(pointer, '_outputPath'), id, diagnostics);

  return {
    index,
    id,
    tool,
    pointer,
    args,
    refs,
    literals,
    outputPath,
    hasOutput,
    ...(hasOutput && { output: raw._output }),
  };
}

/** Finds every reference, literal and suspicious string in the arguments, iteratively. */
function scanArguments(
  args: JsonObject,
  callPointer: string,
  id: string,
  maxDepth: number,
  diagnostics: PendingDiagnostic[],
): { refs: ArgumentReference[]; literals: string[] } {
  const refs: ArgumentReference[] = [];
  const literals: string[] = [];
  const stack: { value: unknown; at: string; depth: number }[] = [{ value: args, at: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, at, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const parsed = parseString(value);
      const pointer = callPointer + at;
      switch (parsed.kind) {
        case 'expression':
          refs.push({ at, expression: parsed.expression, text: value });
          break;
        case 'literal':
          literals.push(at);
          break;
        case 'error':
          diagnostics.push(error(parsed.code, pointer, parsed.message, { call: id, offset: parsed.offset, ...(parsed.hint && { hint: parsed.hint }) }));
          break;
        case 'text':
          if (parsed.suspiciousDagger !== undefined) {
            diagnostics.push(
              warning('W_DAGGER_TEXT', pointer, 'a † inside text is not a reference', {
                call: id,
                offset: parsed.suspiciousDagger,
                hint: 'a reference must be the whole string ("†state.x"); pass text and data as separate arguments, or write †† to mean a literal †',
              }),
            );
          }
          break;
      }
    } else if (value !== null && typeof value === 'object') {
      if (depth >= maxDepth) {
        diagnostics.push(
          error('E_LIMIT', callPointer + at, `arguments nest deeper than ${maxDepth} levels`, {
            call: id,
            hint: 'flatten the value, or raise limits.maxDepth',
          }),
        );
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], at: joinPointer(at, i), depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i]!;
          stack.push({ value: (value as JsonObject)[key], at: joinPointer(at, key), depth: depth + 1 });
        }
      }
    }
  }
  return { refs, literals };
}

function readOutputPath(raw: unknown, pointer: string, id: string, diagnostics: PendingDiagnostic[]): OutputPath | null {
  const hint = '_outputPath names where the result goes: "†state.result", "†state.ok || †state.error" or "†state.a && †state.b"';
  if (typeof raw !== 'string') {
    diagnostics.push(error('E_OUTPUT_PATH', pointer, `_outputPath must be a string, not ${describeJson(raw)}`, { call: id, hint }));
    return null;
  }
  if (!raw.startsWith('†') || raw.startsWith('††')) {
    diagnostics.push(error('E_OUTPUT_PATH', pointer, `_outputPath must be a reference to state, not text`, { call: id, hint, offset: 0 }));
    return null;
  }
  const parsed = parseExpression(raw);
  if ('kind' in parsed) {
    diagnostics.push(error(parsed.code, pointer, parsed.message, { call: id, offset: parsed.offset, ...(parsed.hint && { hint: parsed.hint }) }));
    return null;
  }
  let ok = true;
  for (const ref of parsed.refs) {
    if (ref.root !== 'state') {
      diagnostics.push(
        error('E_OUTPUT_PATH', pointer, `_outputPath cannot write ${ref.text}: input is read-only`, {
          call: id,
          offset: ref.start,
          hint: `write to state instead: "†state${ref.text.slice('†input'.length)}"`,
        }),
      );
      ok = false;
    } else if (ref.segments.includes(WILDCARD)) {
      diagnostics.push(
        error('E_OUTPUT_PATH', pointer, `_outputPath cannot use [*]: ${ref.text} names no single place to write`, {
          call: id,
          offset: ref.start + ref.text.indexOf('[*]'),
          hint: 'write the whole array to one path, e.g. "†state.items"',
        }),
      );
      ok = false;
    }
  }
  if (!ok) return null;
  return {
    op: parsed.op,
    paths: parsed.refs.map((ref) => ({ root: 'state' as const, segments: ref.segments as (string | number)[] })),
    text: raw,
  };
}
