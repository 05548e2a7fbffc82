/**
 * The schema of every line of a journal, in code: the header that binds the file to its run,
 * and one schema per RunEvent type naming each field's type. A journal is read back as
 * untrusted input (it may have been copied, edited or damaged), so a line is a record only when
 * every field is as the executor writes it; anything else is a problem, said in one sentence
 * ("a call:end must have a string "call"") that the reader locates by line.
 *
 * The schemas are typed against RunEvent: a field added to an event without a schema here, or
 * optional in one and required in the other, does not compile.
 */
import { showValue } from '../../tools/safe-describe.js';
import { JOURNAL_PARTS, type JournalDigests } from './journal-digests.js';
import { expandCompact } from './journal-compact.js';
import { REPLACED_FIELDS } from './journal-format.js';
import { isCallError, isCount, isObject, isStandIn } from './journal-values.js';
import { PART_TYPES, type PartRecord, readPartRecord } from './journal-parts.js';
import {
  COMPACT_VERSION,
  JOURNAL_VERSION,
  type JournalVersion,
  NOT_IN_VERSION_2,
  PARTS_VERSION,
  VERSIONS,
} from './journal-versions.js';
import { CALL_STATUSES, type RunEvent } from '../types.js';

/** The first line of a journal bound to a run. */
export interface JournalHeader {
  readonly type: 'journal';
  readonly version: JournalVersion;
  readonly digests: JournalDigests;
  /**
   * One sha256 per tool the plan calls, by name (see toolDigests in journal-digests): what a
   * resume of a later version of the plan compares call by call. Absent in journals written
   * before it was recorded.
   */
  readonly toolDigests?: ToolDigests;
  /**
   * The file name, in the same folder, of the journal of an earlier version of the plan whose
   * results this run reused: a later resume reads it too.
   */
  readonly resumedFrom?: string;
  /** True when a person edited the plan at its approval: this is the plan that ran, not the one given. */
  readonly edited?: true;
}

/** One sha256 (64 lowercase hex digits) per tool name; an object without a prototype. */
export type ToolDigests = Readonly<Record<string, string>>;

/**
 * The name of a journal file: a run key (letters, digits, `.`, `_` and `-`, not starting with
 * `.`) and `.jsonl`. Never a path: it cannot leave its folder.
 */
export const JOURNAL_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}\.jsonl$/;

/** What one parsed line holds. */
export type JournalLine =
  | { readonly kind: 'header'; readonly header: JournalHeader }
  | { readonly kind: 'event'; readonly event: RunEvent }
  /** An element's or a sub-call's record (version 3). */
  | { readonly kind: 'part'; readonly part: PartRecord }
  /** An event whose every field had to be replaced when it was written: nothing in it is usable. */
  | { readonly kind: 'unreadable' }
  /** Not a record: what is wrong, as a sentence without the line number. */
  | { readonly kind: 'problem'; readonly problem: string };

interface FieldType {
  /** What the field must be, after "must have": `a string`, `a whole number (0 or more)`. */
  readonly noun: string;
  readonly test: (value: unknown) => boolean;
}

interface RequiredField {
  readonly type: FieldType;
  readonly optional?: false;
}

interface OptionalField {
  readonly type: FieldType;
  readonly optional: true;
}

type FieldsOf<E> = {
  readonly [K in Exclude<keyof E, 'type'>]-?: object extends Pick<E, K> ? OptionalField : RequiredField;
};

type EventSchemas = { readonly [T in RunEvent['type']]: FieldsOf<Extract<RunEvent, { readonly type: T }>> };

const STRING: FieldType = { noun: 'a string', test: (v) => typeof v === 'string' };
const BOOLEAN: FieldType = { noun: 'a boolean', test: (v) => typeof v === 'boolean' };
const COUNT: FieldType = { noun: 'a whole number (0 or more)', test: isCount };
const DURATION: FieldType = {
  noun: 'a number of milliseconds (0 or more)',
  test: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
};
const DURATION_OR_NULL: FieldType = {
  noun: 'a number of milliseconds or null',
  test: (v) => v === null || DURATION.test(v),
};
const INDEX_OR_NULL: FieldType = {
  noun: 'an alternative index (0 or more) or null',
  test: (v) => v === null || isCount(v),
};
const CALL_STATUS: FieldType = oneOf('a call status', CALL_STATUSES);
const RUN_STATUS: FieldType = oneOf('a run status', ['succeeded', 'failed', 'cancelled', 'rejected']);
const MODE: FieldType = oneOf('a mode', ['eager', 'lazy']);
const APPROVAL_KIND: FieldType = oneOf('an approval kind', ['plan', 'call']);
const OBJECT: FieldType = { noun: 'an object', test: isObject };
/** Any JSON value: the line as a whole was checked against the limits already. */
const VALUE: FieldType = { noun: 'a JSON value', test: (v) => v !== undefined };
const CALL_ERROR: FieldType = {
  noun: 'an error object ({"message": string, "code"?: string})',
  test: isCallError,
};
const CALL_ERROR_OR_NULL: FieldType = {
  noun: `${CALL_ERROR.noun} or null`,
  test: (v) => v === null || isCallError(v),
};

const required = (type: FieldType): RequiredField => ({ type });
const optional = (type: FieldType): OptionalField => ({ type, optional: true });

const SCHEMAS: EventSchemas = {
  'run:start': {
    at: required(STRING),
    runId: required(STRING),
    mode: required(MODE),
    calls: required(COUNT),
  },
  'call:ready': { at: required(STRING), call: required(STRING), tool: required(STRING) },
  'call:start': {
    at: required(STRING),
    call: required(STRING),
    tool: required(STRING),
    attempt: required(COUNT),
    args: required(OBJECT),
  },
  'call:retry': {
    at: required(STRING),
    call: required(STRING),
    tool: required(STRING),
    attempt: required(COUNT),
    delayMs: required(DURATION),
    error: required(CALL_ERROR),
  },
  'call:end': {
    at: required(STRING),
    call: required(STRING),
    tool: required(STRING),
    status: required(CALL_STATUS),
    branch: required(INDEX_OR_NULL),
    handled: required(BOOLEAN),
    attempts: required(COUNT),
    durationMs: required(DURATION_OR_NULL),
    error: required(CALL_ERROR_OR_NULL),
    output: optional(VALUE),
    args: optional(OBJECT),
    resumed: optional(BOOLEAN),
    reused: optional(BOOLEAN),
  },
  'call:element': {
    at: required(STRING),
    call: required(STRING),
    tool: required(STRING),
    index: required(COUNT),
    status: required(oneOf('an element status', ['succeeded', 'failed'])),
    error: required(CALL_ERROR_OR_NULL),
    durationMs: optional(DURATION),
  },
  'state:write': {
    at: required(STRING),
    call: required(STRING),
    path: required(STRING),
    value: required(VALUE),
  },
  'approval:requested': { at: required(STRING), kind: required(APPROVAL_KIND), call: optional(STRING) },
  'run:end': { at: required(STRING), status: required(RUN_STATUS) },
};

const EVENT_TYPES = Object.keys(SCHEMAS);
const HEADER_KEYS = ['type', 'version', 'digests', 'toolDigests', 'resumedFrom', 'edited'];
const DIGEST = /^[0-9a-f]{64}$/;

/**
 * Reads one parsed line (JSON data within the limits, as checkJson found it) of a journal whose
 * header said `version` (1 for a journal without one). Never throws.
 */
export function readJournalLine(
  value: unknown,
  version: JournalVersion = 1,
  maxForEach = Number.MAX_SAFE_INTEGER,
): JournalLine {
  if (!isObject(value)) {
    return problem(`not a journal record: expected a JSON object with a string "type", got ${shape(value)}`);
  }
  if (version >= COMPACT_VERSION && !Object.hasOwn(value, 'type')) {
    const event = expandCompact(value);
    if (typeof event === 'string') return problem(event);
    if (event !== undefined) return readEvent(event.type as 'call:start' | 'call:end', event);
  }
  const type = value.type;
  if (typeof type !== 'string') {
    const tags = version >= COMPACT_VERSION ? ' (or, for a call\'s start or end, "start" or "end")' : '';
    return problem(`not a journal record: expected a string "type"${tags}, got ${shape(type)}`);
  }
  if (type === 'journal') return readHeader(value);
  if (PART_TYPES.has(type)) {
    if (version < PARTS_VERSION) {
      return problem(
        `a version ${version} journal holds no ${type} records (planmode writes them only in version ${PARTS_VERSION} journals): the line was not written by planmode`,
      );
    }
    const part = readPartRecord(type, value, maxForEach, readInnerEvent);
    return typeof part === 'string' ? problem(part) : { kind: 'part', part };
  }
  if (!Object.hasOwn(SCHEMAS, type)) {
    return problem(`${showValue(type)} is not a journal record type (${EVENT_TYPES.join(', ')})`);
  }
  if (version >= 2 && NOT_IN_VERSION_2.has(type)) {
    return problem(
      `a version ${version} journal holds no ${type} records (planmode writes them only in version 1 journals): the line was not written by planmode`,
    );
  }
  return readEvent(type as RunEvent['type'], value);
}

/** The header line, newline included. */
export function encodeHeader(
  fields: Omit<JournalHeader, 'type' | 'version'> & { readonly version?: JournalVersion },
): string {
  const { digests, toolDigests, resumedFrom, edited } = fields;
  const header: JournalHeader = {
    type: 'journal',
    version: fields.version ?? JOURNAL_VERSION,
    digests,
    ...(toolDigests !== undefined && { toolDigests }),
    ...(resumedFrom !== undefined && { resumedFrom }),
    ...(edited === true && { edited }),
  };
  return `${JSON.stringify(header)}\n`;
}

function readHeader(value: Record<string, unknown>): JournalLine {
  for (const key of Object.keys(value)) {
    if (!HEADER_KEYS.includes(key))
      return problem(`the journal header has an unknown field ${showValue(key)}`);
  }
  if (!(VERSIONS as readonly unknown[]).includes(value.version)) {
    return problem(
      `the journal header says version ${showValue(value.version)}; this planmode reads versions 1, 2, 3 and 4`,
    );
  }
  const digests = value.digests;
  if (!isObject(digests))
    return problem(`the journal header must have an object "digests", got ${shape(digests)}`);
  for (const key of Object.keys(digests)) {
    if (!(JOURNAL_PARTS as readonly string[]).includes(key)) {
      return problem(`the journal header's digests have an unknown part ${showValue(key)}`);
    }
  }
  for (const part of JOURNAL_PARTS) {
    const digest = digests[part];
    if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      return problem(
        `the journal header must have a "${part}" digest of 64 lowercase hex digits, got ${shape(digest)}`,
      );
    }
  }
  const problemOfTools = toolDigestsProblem(value.toolDigests);
  if (problemOfTools !== undefined) return problem(problemOfTools);
  const from = value.resumedFrom;
  if (from !== undefined && (typeof from !== 'string' || !JOURNAL_FILE_NAME.test(from))) {
    return problem(
      `the journal header's "resumedFrom" must be the name of a journal file in the same folder (<key>.jsonl), got ${shape(from)}`,
    );
  }
  if (value.edited !== undefined && value.edited !== true) {
    return problem(`the journal header's "edited" must be true when present, got ${shape(value.edited)}`);
  }
  return { kind: 'header', header: value as unknown as JournalHeader };
}

function toolDigestsProblem(digests: unknown): string | undefined {
  if (digests === undefined) return undefined;
  if (!isObject(digests))
    return `the journal header's "toolDigests" must be an object, got ${shape(digests)}`;
  for (const name of Object.keys(digests)) {
    const digest = digests[name];
    if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      return `the journal header's digest of tool ${showValue(name)} must be 64 lowercase hex digits, got ${shape(digest)}`;
    }
  }
  return undefined;
}

/** A part record's inner `call:start` or `call:end`, read by its schema: the event, or what is wrong. */
function readInnerEvent(type: 'call:start' | 'call:end', value: unknown): RunEvent | string {
  if (!isObject(value) || value.type !== type) return `must be a ${type} record`;
  const read = readEvent(type, value);
  return read.kind === 'event'
    ? read.event
    : read.kind === 'problem'
      ? read.problem
      : 'it could not be written whole';
}

function readEvent(type: RunEvent['type'], value: Record<string, unknown>): JournalLine {
  const fields = SCHEMAS[type] as Readonly<Record<string, RequiredField | OptionalField>>;
  const replaced = replacedFields(type, value, fields);
  if (typeof replaced === 'string') return problem(replaced);
  if (replaced.includes('*')) return readUnreadable(type, value);
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== REPLACED_FIELDS && !Object.hasOwn(fields, key)) {
      return problem(`a ${type} has an unknown field ${showValue(key)}`);
    }
  }
  for (const name of Object.keys(fields)) {
    const field = fields[name]!;
    const present = Object.hasOwn(value, name);
    if (!present) {
      if (field.optional) continue;
      return problem(`a ${type} must have ${field.type.noun} "${name}"`);
    }
    const member = value[name];
    if (replaced.includes(name)) {
      // Written as a stand-in because JSON could not hold the real value.
      if (!isStandIn(member)) {
        return problem(
          `a ${type}'s "${name}" is listed in "${REPLACED_FIELDS}" but is not {"unserializable": string}`,
        );
      }
      continue;
    }
    if (!field.type.test(member)) {
      return problem(`a ${type} must have ${field.type.noun} "${name}", got ${shape(member)}`);
    }
  }
  return { kind: 'event', event: value as unknown as RunEvent };
}

/**
 * The fields the writer replaced by stand-ins (see encodeEvent), or what is wrong with the list.
 * `*` means the whole event was replaced.
 */
function replacedFields(
  type: string,
  value: Record<string, unknown>,
  fields: Readonly<Record<string, unknown>>,
): readonly string[] | string {
  if (!Object.hasOwn(value, REPLACED_FIELDS)) return [];
  const list = value[REPLACED_FIELDS];
  const bad = `a ${type}'s "${REPLACED_FIELDS}" must be a list of its field names`;
  if (!Array.isArray(list)) return `${bad}, got ${shape(list)}`;
  for (const name of list) {
    if (typeof name !== 'string') return `${bad}, got an item ${shape(name)}`;
    if (name === '*' ? list.length !== 1 : !Object.hasOwn(fields, name)) {
      return `${bad}, got ${showValue(name)}`;
    }
  }
  return list as string[];
}

/** An event the writer could not serialize at all: `{type, unserializable, unserializableFields: ["*"]}`. */
function readUnreadable(type: string, value: Record<string, unknown>): JournalLine {
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== REPLACED_FIELDS && key !== 'unserializable') {
      return problem(`a ${type} that could not be written whole has an unknown field ${showValue(key)}`);
    }
  }
  if (typeof value.unserializable !== 'string') {
    return problem(`a ${type} that could not be written whole must have a string "unserializable"`);
  }
  return { kind: 'unreadable' };
}

function problem(text: string): JournalLine {
  return { kind: 'problem', problem: text };
}

function oneOf(noun: string, values: readonly string[]): FieldType {
  return { noun: `${noun} (${values.join(', ')})`, test: (v) => typeof v === 'string' && values.includes(v) };
}

/** A bad value, short: its type, and the value itself when it is a short scalar. */
function shape(value: unknown): string {
  return value === undefined ? 'nothing' : showValue(value);
}
