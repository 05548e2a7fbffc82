/**
 * A plan document: the one form the five document shapes (bare call array, plan message,
 * solution, context array, request) are reduced to, and the small words about JSON values the readers
 * and their diagnostics share. The reading itself is read-document.ts (which shape is it),
 * context-messages.ts (the messages of a context array) and read-request.ts (a request); this file imports neither, so every
 * layer may name a document without pulling the readers in.
 */
import type { SourceText } from './text/index.js';

export type ExecutionMode = 'eager' | 'lazy';
export type DocumentShape = 'calls' | 'plan' | 'solution' | 'context' | 'request';

export type JsonObject = { [key: string]: unknown };

/**
 * A plan as compile(), run() and simulate() take it: a document from parsePlan(), the JSON text
 * of one, or its parsed JSON value (an array of calls, or an object of one of the document
 * shapes). Anything else (undefined, a number) is not a plan and does not type-check.
 */
export type PlanInput = PlanDocument | string | readonly unknown[] | object;

/**
 * A request as a caller sends it to the plan loop: the schema its reply (or its final answer)
 * must match, and the context it starts from. As a plan document, its context is the plan.
 */
export interface PlanRequest {
  /**
   * JSON Schema of the reply `{"calls": [...], "output": ...}` (then its `properties.output` is
   * the answer's), or of the answer itself (a schema without `properties.calls`).
   */
  readonly schema?: { readonly [key: string]: unknown } | boolean;
  /** Input, state, tool and plan messages (the plan message may be missing), or calls. */
  readonly context: readonly unknown[];
}

/** A parsed plan document: its calls (still raw JSON) and everything around them. */
export interface PlanDocument {
  readonly shape: DocumentShape;
  /** The mode the document asks for; compile's `mode` option can only make it lazier. */
  readonly mode: ExecutionMode;
  /** The calls as written, not yet checked. */
  readonly calls: readonly unknown[];
  /** Pointer to the calls array, so `joinPointer(callsPointer, i)` points at call i. */
  readonly callsPointer: string;
  /** `†input` values from an input message, if any. */
  readonly input?: JsonObject;
  /** Initial state values from a state message, if any (its `schema` key excluded). */
  readonly state?: JsonObject;
  /** The state message's JSON Schema for the state object, if any. */
  readonly stateSchema?: JsonObject;
  readonly stateSchemaPointer?: string;
  /**
   * The tools the context's `tool` messages name (`{"type": "tool", "tool": "Tool.search"}`), the
   * `Tool.` prefix dropped, each with the pointer to its name. With tools given, compile checks
   * that each exists (E_UNKNOWN_TOOL); they do not limit which tools the calls may use.
   */
  readonly tools?: readonly ToolMention[];
  /** A solution's `output`, if the document is a solution. */
  readonly output?: unknown;
  /**
   * A request's `schema` as written (`{"schema": ..., "context": [...]}`), with its pointer:
   * the schema of the loop's reply, checked as a JSON Schema by compile (E_OUTPUT_SCHEMA).
   */
  readonly schema?: JsonObject | boolean;
  readonly schemaPointer?: string;
  /**
   * What the loop's final answer must match, from a request's `schema`: its
   * `properties.output` when the schema describes a whole reply (it has `properties.calls`),
   * else the schema itself. Absent when the request has no schema, or its reply schema says
   * nothing about `output`.
   */
  readonly outputSchema?: JsonObject | boolean;
  /** The text the document came from, for positions. */
  readonly source: SourceText;
}

/** A tool a context's `tool` message names. */
export interface ToolMention {
  /** The name, without the optional `Tool.` prefix (`Tool.detectLanguage`). */
  readonly name: string;
  /** Pointer to the message's `tool` value. */
  readonly pointer: string;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A short description of a JSON value for messages: `a number (42)`, `an object`. */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const text = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `a string (${JSON.stringify(text)})`;
    }
    case 'number':
      return `a number (${value})`;
    case 'boolean':
      return `a boolean (${value})`;
    default:
      return 'an object';
  }
}
