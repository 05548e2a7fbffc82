/**
 * What a lazy plan's workflows will call, as the listing at the approval prompt shows it: under
 * a call of a workflow, its plan's calls, indented, with a workflow among them opened under
 * it in turn. A workflow is opened once, under its first call; a later call of it says where
 * its calls are listed, so the listing grows with the workflows' plans, not with how often they
 * are called. Walked with an explicit stack; at most MAX_WORKFLOW_DEPTH deep and MAX_LINES in
 * all (a plan file's workflows may be large), arguments cut at ARGS_CHARS.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { WorkflowInnerCall } from '../../run/sub-run-types.js';
import { MAX_WORKFLOW_DEPTH } from '../../run/index.js';
import { type WorkflowListing, workflowListing } from '../../run/workflow-listing.js';
import { clip, paint } from '../output/index.js';

/** Most lines of workflows' calls in one plan's listing. */
const MAX_LINES = 200;

/** Most characters of an inner call's arguments (as written) on its line. */
const ARGS_CHARS = 200;

interface Frame {
  readonly calls: readonly WorkflowInnerCall[];
  next: number;
  readonly depth: number;
}

/** Opens the workflows of one plan's listing, keeping what was opened where and the lines spent. */
export class WorkflowLines {
  readonly #listing: WorkflowListing | undefined;
  readonly #openedUnder = new Map<string, string>();
  #lines = 0;

  constructor(
    plan: CompiledPlan,
    private readonly color: boolean,
  ) {
    this.#listing = plan.tools ? workflowListing(plan, plan.tools) : undefined;
  }

  /** The lines under call `id` of the plan, whose tool is `tool`: '' when it is no workflow. */
  under(id: string, tool: string): string {
    const listing = this.#listing;
    if (listing === undefined || !Object.hasOwn(listing, tool)) return '';
    let out = '';
    const first = this.#open(tool, id, 1);
    if (first.line !== undefined) return this.#line(first.line);
    const stack: Frame[] = [{ calls: listing[tool]!, next: 0, depth: 1 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.next >= frame.calls.length) {
        stack.pop();
        continue;
      }
      const call = frame.calls[frame.next++]!;
      out += this.#line(this.#callLine(call, frame.depth));
      if (this.#lines > MAX_LINES) return out;
      if (!Object.hasOwn(listing, call.tool) || frame.depth >= MAX_WORKFLOW_DEPTH) continue;
      const opened = this.#open(call.tool, call.id, frame.depth + 1);
      if (opened.line !== undefined) out += this.#line(opened.line);
      else stack.push({ calls: listing[call.tool]!, next: 0, depth: frame.depth + 1 });
    }
    return out;
  }

  /** Marks `tool` opened under call `id`, or says where it was opened already. */
  #open(tool: string, id: string, depth: number): { line?: string } {
    const where = this.#openedUnder.get(tool);
    if (where === undefined) {
      this.#openedUnder.set(tool, id);
      return {};
    }
    return {
      line: `${indent(depth)}${paint(`(workflow ${clip(tool, 60)}: its calls are listed under ${clip(where, 60)})`, this.color, 'dim')}`,
    };
  }

  #callLine(call: WorkflowInnerCall, depth: number): string {
    const c = this.color;
    const flags = [
      call.forEach && `for each ${clip(call.forEach, 80)}`,
      call.needsApproval && 'needs approval',
    ].filter(Boolean);
    let line = `${indent(depth)}${paint(clip(call.id, 40), c, 'bold')}  ${paint(clip(call.tool, 40), c, 'cyan')}  ${clip(JSON.stringify(call.args), ARGS_CHARS)}`;
    if (call.outputPath !== null) line += `  → ${clip(call.outputPath, 120)}`;
    if (flags.length > 0) line += `  ${paint(`[${flags.join(', ')}]`, c, 'yellow')}`;
    return line;
  }

  /** One line, or the note that the rest is left out once MAX_LINES were written. */
  #line(text: string): string {
    this.#lines++;
    if (this.#lines <= MAX_LINES) return `${text}\n`;
    if (this.#lines === MAX_LINES + 1)
      return `    ${paint(`… more calls inside workflows, not listed here (over ${MAX_LINES} lines)`, this.color, 'dim')}\n`;
    return '';
  }
}

function indent(depth: number): string {
  return `${'  '.repeat(depth + 1)}↳ `;
}
