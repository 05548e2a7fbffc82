/**
 * Asking a person on the terminal: the plan (lazy mode) or one call (a tool that needs
 * approval), then `[y/N]` and one line read from standard input.
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { JsonObject } from '../../language/document.js';
import { splitPointer } from '../../language/pointer.js';
import { resolveExpression } from '../../language/resolve.js';
import type { SourceText } from '../../language/text/index.js';
import type { CallApprovalRequest } from '../../run/approval.js';
import { simulateCompiled } from '../../simulate/simulate.js';
import { clip, formatDiagnostics, oneLine, paint, plural, formatSimulation } from '../output/index.js';
import { parentChainText } from './approval-lines.js';
import type { OutputStream } from '../io.js';
import { WorkflowLines } from './workflow-lines.js';

/** Lines of text from a stream of chunks, one at a time, without reading ahead of need. */
export interface LineReader {
  /** The next line without its line break, or null at the end of the input. */
  readLine(): Promise<string | null>;
  /** Lets go of the input. */
  close(): void;
}

export function lineReader(input: AsyncIterable<string | Uint8Array>): LineReader {
  let iterator: AsyncIterator<string | Uint8Array> | null = null;
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  return {
    async readLine() {
      for (;;) {
        const newline = buffer.indexOf('\n');
        if (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          return line;
        }
        if (ended) {
          const rest = buffer;
          buffer = '';
          return rest === '' ? null : rest;
        }
        // Opened on first use: a run that asks nothing never touches standard input.
        iterator ??= input[Symbol.asyncIterator]();
        const next = await iterator.next();
        if (next.done) {
          ended = true;
          buffer += decoder.decode();
        } else {
          buffer +=
            typeof next.value === 'string' ? next.value : decoder.decode(next.value, { stream: true });
        }
      }
    },
    close() {
      // Not awaited: with a read still pending (Ctrl-C at a prompt) it settles only later.
      iterator?.return?.().catch(() => {});
      ended = true;
    },
  };
}

/** One question at a time, however many calls ask at once. */
export class Prompter {
  #queue: Promise<unknown> = Promise.resolve();
  #open = false;

  constructor(
    private readonly reader: LineReader,
    private readonly out: OutputStream,
  ) {}

  /**
   * Writes the question (its last line is left open for the answer) and reads the answer.
   * @param before Runs just before the question is written (the live view steps aside).
   * @param after Runs once it is answered.
   * @returns True for `y` or `yes`, in any case; false for anything else and at end of input.
   */
  ask(question: string, hooks: { before?: () => void; after?: () => void } = {}): Promise<boolean> {
    return this.askLine(question, hooks).then((line) => line !== null && /^\s*y(es)?\s*$/i.test(line));
  }

  /**
   * Like {@link ask}, with the answer as typed (for a no with reasons).
   * @returns The line without its line break, or null at the end of the input.
   */
  askLine(question: string, hooks: { before?: () => void; after?: () => void } = {}): Promise<string | null> {
    const answer = this.#queue.then(async () => {
      hooks.before?.();
      this.out.write(question);
      this.#open = true;
      try {
        const line = await this.reader.readLine();
        if (line === null) this.out.write('\n');
        return line;
      } finally {
        this.#open = false;
        hooks.after?.();
      }
    });
    this.#queue = answer.catch(() => {});
    return answer;
  }

  /** True while a question waits for its answer (the cursor is at the end of its line). */
  get open(): boolean {
    return this.#open;
  }

  close(): void {
    this.reader.close();
  }
}

export interface ListingOptions {
  /** The plan's name. */
  readonly file: string;
  readonly color: boolean;
}

/**
 * The plan as a person approves it: each call with its tool, its arguments (input values and
 * initial state resolved, everything a call will write shown as the reference), its output
 * path and the flags that matter (latent, needs approval); under a workflow's call, the calls
 * its plan will make (see workflow-lines.ts); then the compile warnings.
 */
export function formatPlanListing(plan: CompiledPlan, options: ListingOptions): string {
  const c = options.color;
  const idWidth = Math.min(
    24,
    plan.calls.reduce((w, call) => Math.max(w, call.id.length), 1),
  );
  const toolWidth = Math.min(
    24,
    plan.calls.reduce((w, call) => Math.max(w, call.tool.length), 1),
  );
  let out = `${paint(options.file, c, 'bold')}: ${plan.mode} plan, ${plural(plan.calls.length, 'call')}, ${plural(plan.edgeCount, 'edge')}\n`;
  const workflows = new WorkflowLines(plan, c);
  for (const call of plan.calls) {
    const tool = plan.tools?.get(call.tool)?.tool;
    const flags = [tool?.latent && 'latent', tool?.needsApproval && 'needs approval'].filter(Boolean);
    let line = `  ${paint(call.id.padEnd(idWidth), c, 'bold')}  ${paint(call.tool.padEnd(toolWidth), c, 'cyan')}  ${describeArguments(call, plan)}`;
    if (call.outputPath) line += `  → ${call.outputPath.text}`;
    if (flags.length > 0) line += `  ${paint(`[${flags.join(', ')}]`, c, 'yellow')}`;
    out += `${line}\n`;
    out += workflows.under(call.id, call.tool);
  }
  if (plan.diagnostics.length > 0) out += formatDiagnostics(plan.diagnostics, options);
  return out;
}

/**
 * The dry run of the plan, compact, for the person about to approve it: how many scenarios,
 * what each runs and skips, the argument errors, the critical path. Nothing is executed.
 */
export function formatPlanSimulation(
  plan: CompiledPlan,
  options: ListingOptions & { readonly source?: SourceText | null },
): string {
  try {
    const simulation = simulateCompiled(plan, options.source ?? null);
    return formatSimulation(simulation, { file: options.file, color: options.color, maxRows: 6, maxIds: 6 });
  } catch (e) {
    // The prompt must still be asked: a dry run that cannot be made is one line, not a crash.
    return `dry run: not available (${oneLine((e as Error).message)})\n`;
  }
}

/**
 * The question for one call whose tool needs approval, with the arguments it will run with;
 * for a call inside a workflow, where it is (`in top (release) › s[1] (ship)`); for a `_forEach`
 * call (asked once for all of its elements), each element's arguments.
 */
export function formatCallQuestion(
  request: Pick<CallApprovalRequest, 'call' | 'tool' | 'args'> &
    Partial<Pick<CallApprovalRequest, 'parent' | 'elements'>>,
  color: boolean,
): string {
  const where = request.parent ? ` in ${parentChainText(request.parent)}` : '';
  const what = request.elements
    ? `for each of ${plural(request.elements.length, 'element')}: ${clip(safeJson(request.elements), ELEMENTS_CHARS)}`
    : `with ${safeJson(request.args)}`;
  return `Run ${paint(request.call, color, 'bold')} (${paint(request.tool, color, 'cyan')})${where} ${what}? [y/N] `;
}

/** Most characters of a `_forEach` call's elements in its question (there may be thousands). */
const ELEMENTS_CHARS = 600;

/**
 * The arguments as JSON, with each reference written bare (`{"city": †state.city}`) unless
 * its value is known before the run: input, or initial state that no call writes.
 */
export function describeArguments(call: CompiledCall, plan: CompiledPlan): string {
  const args = structuredClone(call.args) as JsonObject;
  const marks = new Map<string, string>();
  const nonce = Math.random().toString(36).slice(2);
  for (const [k, argument] of call.refs.entries()) {
    const known = argument.expression.refs.every(
      (ref) =>
        ref.root === 'input' || call.reads.find((read) => read.ref === ref && read.writers.length === 0),
    );
    const value = known
      ? resolveExpression(argument.expression, { input: plan.input ?? {}, state: plan.state ?? {} })
      : { exists: false as const };
    if (value.exists) setAt(args, argument.at, value.value);
    else {
      const mark = `\u0001ref${nonce}${k}\u0001`;
      marks.set(JSON.stringify(mark), argument.text);
      setAt(args, argument.at, mark);
    }
  }
  for (const at of call.literals) setAt(args, at, (getAt(args, at) as string).slice(1));
  let text = safeJson(args);
  for (const [mark, reference] of marks) text = text.split(mark).join(reference);
  return text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function getAt(root: unknown, at: string): unknown {
  let current = root;
  for (const token of splitPointer(at)) current = (current as Record<string, unknown>)[token];
  return current;
}

function setAt(root: JsonObject, at: string, value: unknown): void {
  const path = splitPointer(at);
  let container: unknown = root;
  for (const token of path.slice(0, -1)) container = (container as Record<string, unknown>)[token];
  Object.defineProperty(container, path[path.length - 1]!, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
