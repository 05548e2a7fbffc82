/**
 * Reading a session snapshot back. It comes from a file, a database or another process, so it
 * is untrusted: a file's bytes are bounded before they are read, its depth, size and keys are
 * checked by checkJson before anything walks it, and then its shape against one JSON Schema
 * (ajv) of what solve() writes. Each refusal is a SessionError `bad-snapshot` with the pointer
 * of the field at fault, what is wrong there and how to fix it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { SessionError } from '../../errors.js';
import { checkJson, cloneJson } from '../../language/json/index.js';
import { DEFAULT_LIMITS, type Limits } from '../../language/limits.js';
import { SESSION_SNAPSHOT_VERSION, type SolveSnapshot } from './session.js';

/**
 * Levels of the snapshot above the deepest value a tool or the model chose (a call's output in
 * `context.progress[i].output`): those values may nest `maxDepth` deep themselves.
 */
const ENVELOPE_DEPTH = 4;

const STATUSES = [
  'done',
  'max_iterations',
  'invalid',
  'rejected',
  'cancelled',
  'budget_exceeded',
  'stalled',
  'ended',
];
const COUNT = { type: 'integer', minimum: 0 };
const OBJECT = { type: 'object' };

/** The shape solve() writes; values a tool or the model chose (state, outputs) are any JSON. */
const SNAPSHOT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'version',
    'tools',
    'input',
    'state',
    'turn',
    'spent',
    'history',
    'context',
    'sideEffects',
    'ended',
  ],
  properties: {
    version: { const: SESSION_SNAPSHOT_VERSION },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'digest'],
        properties: { name: { type: 'string' }, digest: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
    input: OBJECT,
    state: OBJECT,
    turn: COUNT,
    spent: {
      type: 'object',
      additionalProperties: false,
      required: ['calls', 'turns', 'tokens', 'wallMs', 'largestPlan'],
      properties: { calls: COUNT, turns: COUNT, tokens: COUNT, wallMs: COUNT, largestPlan: COUNT },
    },
    history: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'content'],
        properties: { role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string' } },
      },
    },
    context: {
      type: 'object',
      additionalProperties: false,
      required: ['plan', 'progress', 'failures', 'note'],
      properties: {
        plan: { type: 'array' },
        progress: {
          anyOf: [
            { type: 'null' },
            {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'tool', 'status'],
                properties: { id: { type: 'string' }, tool: { type: 'string' }, status: { type: 'string' } },
              },
            },
          ],
        },
        failures: {
          type: 'array',
          items: { type: 'object', required: ['call', 'tool', 'status', 'error'] },
        },
        note: { type: ['string', 'null'] },
      },
    },
    sideEffects: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tool', 'args', 'output', 'branch'],
        properties: {
          tool: { type: 'string' },
          args: OBJECT,
          output: true,
          branch: { type: ['integer', 'null'], minimum: 0 },
        },
      },
    },
    ended: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['status', 'output'],
          properties: { status: { enum: STATUSES }, output: true },
        },
      ],
    },
  },
} as const;

let validator: ValidateFunction | undefined;

/** Where the snapshot came from, for the messages. */
export interface SnapshotSource {
  /**
   * The snapshot file.
   * @default undefined: "the snapshot"
   */
  readonly path?: string;
  /**
   * Bounds on the snapshot's depth, size and keys.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Limits;
}

/**
 * The snapshot, checked and copied (the caller's object is not kept).
 * @throws {SessionError} `bad-snapshot`, with the pointer of the field at fault.
 */
export function readSnapshot(value: unknown, source: SnapshotSource = {}): SolveSnapshot {
  const limits = source.limits ?? DEFAULT_LIMITS;
  const checked = checkJson(value, { limits, depth: -ENVELOPE_DEPTH });
  if ('problem' in checked) {
    const { pointer, message, hint } = checked.problem;
    throw bad(source, pointer, `${placeOf(pointer)} ${message}; ${hint}`);
  }
  validator ??= new Ajv({ allErrors: false, strict: false }).compile(SNAPSHOT_SCHEMA);
  if (!validator(value)) {
    const error = validator.errors![0]!;
    throw bad(source, error.instancePath, `${placeOf(error.instancePath)} ${explain(error)}`);
  }
  return cloneJson(value) as unknown as SolveSnapshot;
}

/** A SessionError for a snapshot that is not one solve() wrote. */
export function bad(source: SnapshotSource, pointer: string, what: string): SessionError {
  const where = source.path === undefined ? 'the session snapshot' : `the session file '${source.path}'`;
  return new SessionError(
    `${where} cannot be resumed from: ${what}. It is not a snapshot solve() wrote (version ${SESSION_SNAPSHOT_VERSION}); restore it from a copy, or delete it to start a new session`,
    { kind: 'bad-snapshot', pointer, ...(source.path !== undefined && { path: source.path }) },
  );
}

function placeOf(pointer: string): string {
  return pointer === '' ? 'the snapshot' : `its field ${pointer}`;
}

function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    return `has an unknown key '${String(params.additionalProperty)}'`;
  if (error.keyword === 'required') return `is missing '${String(params.missingProperty)}'`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? 'is not valid';
}

/**
 * The `session` option checked, and the snapshot it loads (checked too), or undefined.
 * @throws {TypeError} for a session that is not `{ save, load? }`; {@link SessionError} for its snapshot.
 */
export async function loadSession(
  session: unknown,
  limits: Limits | undefined,
  where: string,
): Promise<SolveSnapshot | undefined> {
  if (session === undefined) return undefined;
  const given = session as Partial<Record<'save' | 'load', unknown>> | null;
  if (given === null || typeof given !== 'object' || typeof given.save !== 'function') {
    throw new TypeError(
      `${where}: session must be an object with a save(snapshot) function (and optionally load()), e.g. fileSession('session.json')`,
    );
  }
  if (given.load !== undefined && typeof given.load !== 'function') {
    throw new TypeError(
      `${where}: session.load must be a function returning the snapshot to resume from, or undefined`,
    );
  }
  const value: unknown = await (given.load as (() => unknown) | undefined)?.();
  if (value === undefined || value === null) return undefined;
  const path = (session as { path?: unknown }).path;
  return readSnapshot(value, {
    ...(typeof path === 'string' && { path }),
    ...(limits && { limits }),
  });
}
