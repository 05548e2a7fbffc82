/**
 * One raw call object to a checked call: meta keys, tool name, references (the argument scan
 * below), output path (output-path.ts).
 */
import { countedIfFull, error, type DiagnosticSink, warning } from '../../language/diagnostics.js';
import { describeJson, isJsonObject, type JsonObject, type ExecutionMode } from '../../language/document.js';
import { exactCopy } from '../../language/json/index.js';
import { joinPointer } from '../../language/pointer.js';
import type { Limits } from '../../language/limits.js';
import { parseLoopReference } from '../../language/loop-reference.js';
import { DAGGER, type ParsedString, type StringParser } from '../../language/reference.js';
import { type BareReference, mayBeBareReference } from './bare-references.js';
import { type ReferenceFacts, UNCHECKED, type ArgumentColumns } from '../storage/index.js';
import { CallSpec } from './call-spec.js';
import { place } from './call-place.js';
import { checkOutputValue, checkPathLimits, readOutputPath } from './output-path.js';
import { readOnError } from './on-error.js';
import { readForEach } from './for-each.js';
import { FOR_EACH_POINTER, type LoopArgument } from '../types.js';

const DAGGER_CODE = DAGGER.charCodeAt(0);

const META_KEYS = new Set([
  '_tool',
  '_outputPath',
  '_output',
  '_id',
  '_onError',
  '_after',
  '_independent',
  '_forEach',
]);

/** What every call of one compile is read with (one object for them all). */
export interface ReadCallOptions {
  readonly mode: ExecutionMode;
  /** Depth, keys, array indices and `_output`'s size are checked against these. */
  readonly limits: Limits;
  /** Parses reference strings; one per compile, so equal strings are parsed once. */
  readonly parser: StringParser;
  /** Where every call's reference arguments go; one per compile, beside `parser`. */
  readonly columns: ArgumentColumns;
  /**
   * What is known of each reference string by its number (one per compile, beside `parser`
   * and `columns`); the numbers of the call's strings are left in its `ofCall`, in the order
   * of the call's refs, and that of its `_outputPath` in `output`.
   */
  readonly facts: ReferenceFacts;
  /**
   * Where strings that may be references without their dagger are noted, for W_MISSING_DAGGER
   * once every call is in; not noted when undefined.
   * @default undefined
   */
  readonly bareReferences?: BareReference[];
}

/**
 * Checks call `index` (at `/index` in the calls array at `callsPointer`) on its own. Returns
 * null when it is not even an object.
 */
export function readCall(
  raw: unknown,
  index: number,
  callsPointer: string,
  options: ReadCallOptions,
  diagnostics: DiagnosticSink,
): CallSpec | null {
  options.facts.output = -1;
  place.index = index;
  place.callsPointer = callsPointer;
  place.explicitId = undefined;
  if (!isJsonObject(raw)) {
    diagnostics.push(
      error('E_SHAPE', place.pointer, `call ${index} must be an object, not ${describeJson(raw)}`, {
        hint: 'a call looks like {"_tool": "name", "arg": "value", "_outputPath": "†state.result"}',
      }),
    );
    return null;
  }
  if (raw._id !== undefined) {
    if (typeof raw._id === 'string' && raw._id !== '') place.explicitId = raw._id;
    else {
      diagnostics.push(
        error(
          'E_SHAPE',
          joinPointer(place.pointer, '_id'),
          `_id must be a non-empty string, not ${describeJson(raw._id)}`,
          { call: place.id },
        ),
      );
    }
  }
  let tool: string | null = null;
  if (typeof raw._tool === 'string' && raw._tool !== '') tool = raw._tool;
  else {
    diagnostics.push(
      error(
        'E_NO_TOOL',
        raw._tool === undefined ? place.pointer : joinPointer(place.pointer, '_tool'),
        raw._tool === undefined
          ? `call ${place.id} has no _tool`
          : `_tool must be a tool name, not ${describeJson(raw._tool)}`,
        { call: place.id, hint: 'every call names its tool: {"_tool": "search", ...}' },
      ),
    );
  }

  // Keys are walked with for-in (the engine's cached list of the object's keys) rather than
  // Object.keys, which makes an array of them per call; own keys only, so that a key someone
  // put on Object.prototype is not taken for an argument.
  let keyCount = 0;
  for (const key in raw) if (Object.hasOwn(raw, key)) keyCount++;
  if (keyCount > options.limits.maxKeys) {
    diagnostics.push(
      error(
        'E_LIMIT',
        place.pointer,
        `call ${place.id} has ${keyCount} keys; the limit is ${options.limits.maxKeys}`,
        {
          call: place.id,
          hint: 'pass fewer arguments (group them in one object), or raise limits.maxKeys',
        },
      ),
    );
    return null;
  }
  const args = copyArguments(raw);
  for (const key in raw) {
    if (!Object.hasOwn(raw, key) || !key.startsWith('_')) continue;
    if (!META_KEYS.has(key)) {
      if (countedIfFull(diagnostics, 'error')) continue;
      const near = [...META_KEYS].find((m) => m.toLowerCase() === key.toLowerCase());
      diagnostics.push(
        error('E_UNKNOWN_META', joinPointer(place.pointer, key), `unknown meta key "${key}"`, {
          call: place.id,
          atKey: true,
          hint: near
            ? `did you mean "${near}"?`
            : 'keys starting with _ are reserved: _tool, _outputPath, _output, _id, _onError, _after, _independent, _forEach; rename the argument without the underscore',
        }),
      );
    }
  }

  const hasOutput = Object.hasOwn(raw, '_output');
  if (hasOutput) checkOutputValue(raw._output, options.limits, diagnostics);
  if (hasOutput && options.mode === 'lazy') {
    diagnostics.push(
      error('E_LAZY_OUTPUT', place.inside('/_output'), 'a lazy plan cannot carry _output', {
        call: place.id,
        atKey: true,
        hint: 'in lazy mode the latent tool runs after approval; remove _output, or make the plan eager',
      }),
    );
  }

  const refStart = options.columns.size;
  const forEach = raw._forEach !== undefined;
  scanner.loopArguments = forEach ? [] : null;
  scanner.scan(args, index, options, diagnostics);
  // The array is read as one more reference, after the arguments' (see FOR_EACH_POINTER).
  if (forEach) {
    const n = readForEach(raw, options, diagnostics);
    if (n >= 0) {
      options.facts.ofCall[scanner.refCount++] = n;
      options.columns.add(FOR_EACH_POINTER, n);
    }
  }
  const literals =
    scanner.literalCount === 0 ? NO_LITERALS : exactCopy(scanner.literals, scanner.literalCount);
  const outputPath =
    raw._outputPath === undefined ? null : readOutputPath(raw._outputPath, options, diagnostics);

  const spec = new CallSpec(
    index,
    place.explicitId,
    tool,
    callsPointer,
    args,
    scanner.refCount === 0 ? null : options.columns,
    refStart,
    scanner.refCount,
    literals,
    outputPath,
    hasOutput,
    hasOutput ? raw._output : undefined,
  );
  if (forEach) spec.forEach = { text: String(raw._forEach), loopArguments: scanner.loopArguments! };
  if (raw._onError !== undefined)
    spec.errorAlternative = readOnError(
      raw._onError,
      outputPath,
      raw._outputPath !== undefined,
      place,
      diagnostics,
    );
  return spec;
}

/**
 * The call's own keys but the meta keys (`_...`). A function of its own, not a loop inside
 * readCall: made there, by the same statements, each call's arguments cost about 240 more bytes
 * of allocation (V8's sampling heap profiler, 100k calls of four arguments: 1180 against 943
 * bytes per call read), a quarter of what reading a call allocates.
 */
function copyArguments(raw: JsonObject): JsonObject {
  const args: JsonObject = {};
  for (const key in raw) if (Object.hasOwn(raw, key) && !key.startsWith('_')) args[key] = raw[key];
  return args;
}

/** A container met in the arguments, waiting to be scanned. */
interface PendingContainer {
  readonly value: object;
  readonly at: string;
  readonly depth: number;
}

/**
 * Finds every reference, literal and suspicious string in a call's arguments, iteratively.
 * One scanner serves every call (a scan never starts another): its state lives in fields, not
 * in a closure and its variables made for each call of a 100k-call plan. References go to the
 * compile's columns (`refCount` of them for this call); literals are left in `literals` (the
 * first `literalCount` entries), which the caller copies at exact size: arrays grown by push
 * reserve 17 slots, which on a 100k-call plan cost more memory than the plan itself.
 */
class ArgumentScanner {
  readonly literals: string[] = [];
  refCount = 0;
  literalCount = 0;
  /** Where `†item` / `†index` arguments go: a list while a `_forEach` call is read, else null (they are errors). */
  loopArguments: LoopArgument[] | null = null;
  readonly #stack: PendingContainer[] = [];
  #index = 0;
  #options: ReadCallOptions | undefined = undefined;
  #diagnostics: DiagnosticSink | undefined = undefined;

  scan(args: JsonObject, index: number, options: ReadCallOptions, diagnostics: DiagnosticSink): void {
    this.refCount = 0;
    this.literalCount = 0;
    this.#index = index;
    this.#options = options;
    this.#diagnostics = diagnostics;
    const { limits } = options;
    const stack = this.#stack;
    // Top-level arguments are visited directly: most are strings and numbers, and their
    // pointers ("/key") are interned, since every call of a plan tends to use the same keys.
    // for-in, not Object.keys: no array per call (see readCall).
    for (const key in args) if (Object.hasOwn(args, key)) this.#visit(args[key], topLevelPointer(key), 1);
    while (stack.length > 0) {
      const { value, at, depth } = stack.pop()!;
      // The call object is level 1, so a value popped at `depth` is a container at level depth + 1.
      if (depth >= limits.maxDepth) {
        diagnostics.push(
          error('E_LIMIT', place.inside(at), `arguments nest deeper than ${limits.maxDepth} levels`, {
            call: place.id,
            hint: 'flatten the value, or raise limits.maxDepth',
          }),
        );
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) this.#visit(value[i], joinPointer(at, i), depth + 1);
      } else {
        const object = value as JsonObject;
        const keys = Object.keys(object);
        if (keys.length > limits.maxKeys) {
          diagnostics.push(
            error(
              'E_LIMIT',
              place.inside(at),
              `an argument object has ${keys.length} keys; the limit is ${limits.maxKeys}`,
              {
                call: place.id,
                hint: 'split the object, or raise limits.maxKeys',
              },
            ),
          );
          continue;
        }
        for (let i = keys.length - 1; i >= 0; i--)
          this.#visit(object[keys[i]!], joinPointer(at, keys[i]!), depth + 1);
      }
    }
    // Nothing of this compile is kept once the scan is over.
    this.#options = undefined;
    this.#diagnostics = undefined;
  }

  #visit(value: unknown, at: string, depth: number): void {
    if (typeof value !== 'string') {
      if (value !== null && typeof value === 'object') this.#stack.push({ value, at, depth });
      return;
    }
    const { parser, facts, bareReferences, columns } = this.#options!;
    if (value.indexOf(DAGGER) < 0) {
      // The common case: plain text, nothing to parse, unless it starts like "state.x".
      if (bareReferences && mayBeBareReference(value))
        bareReferences.push({ call: this.#index, at, text: value });
      return;
    }
    // A reference string seen before, within the limits then, is taken by its number alone:
    // the number is what the columns keep, and nothing of its parse is loaded (see
    // ReferenceFacts).
    let n = -1;
    let parsed: ParsedString;
    if (value.charCodeAt(0) === DAGGER_CODE && value.charCodeAt(1) !== DAGGER_CODE) {
      n = parser.numberOnly(value);
      if (facts.kindOf(n) !== UNCHECKED) {
        facts.ofCall[this.refCount++] = n;
        columns.add(at, n);
        return;
      }
      parsed = parser.parsed(n);
    } else parsed = parser.parseString(value); // text or a `††` literal: never an expression
    const diagnostics = this.#diagnostics!;
    switch (parsed.kind) {
      case 'expression':
        if (checkPathLimits(parsed.expression.refs, at, this.#options!.limits, diagnostics)) {
          facts.fits(n, parsed.expression, value);
          facts.ofCall[this.refCount++] = n;
          columns.add(at, n);
        }
        break;
      case 'literal':
        this.literals[this.literalCount++] = at;
        break;
      case 'error':
        if (parsed.code === 'E_FOR_EACH_REF' && this.loopArguments !== null) {
          const ref = parseLoopReference(value);
          if (ref !== null) {
            this.loopArguments.push({ at, ref });
            break;
          }
        }
        diagnostics.push(
          error(parsed.code, place.inside(at), parsed.message, {
            call: place.id,
            offset: parsed.offset,
            ...(parsed.hint && { hint: parsed.hint }),
          }),
        );
        break;
      case 'text':
        if (parsed.suspiciousDagger !== undefined) {
          diagnostics.push(
            warning('W_DAGGER_TEXT', place.inside(at), 'a † inside text is not a reference', {
              call: place.id,
              offset: parsed.suspiciousDagger,
              hint: 'a reference must be the whole string ("†state.x"); pass text and data as separate arguments, or write †† to mean a literal †',
            }),
          );
        }
        break;
    }
  }
}

const scanner = new ArgumentScanner();

const topLevelPointers = new Map<string, string>();

function topLevelPointer(key: string): string {
  let pointer = topLevelPointers.get(key);
  if (pointer === undefined) {
    pointer = joinPointer('', key);
    if (topLevelPointers.size < 10_000) topLevelPointers.set(key, pointer);
  }
  return pointer;
}

const NO_LITERALS: string[] = [];
