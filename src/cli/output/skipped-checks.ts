/**
 * What `plan validate` and `plan graph` could not check for want of a flag. A plan that says
 * "valid" for a tool that does not exist, with no word of why, misleads: the note says what
 * was skipped and which calls it concerns.
 */
import type { CompileResult } from '../../compile/compile.js';
import { clip, plural } from './format.js';

/**
 * `tools`: tool names (and that `_output` is only given to latent tools); `arguments`: literal
 * arguments against each tool's inputSchema; `input`: `†input` reads against the input values.
 */
export const SKIPPABLE_CHECKS = ['tools', 'arguments', 'input'] as const;
export type SkippedCheck = (typeof SKIPPABLE_CHECKS)[number];

export interface SkippedChecksOptions {
  /** --tools or --mcp gave tools. */
  readonly tools: boolean;
}

/** Tool names listed in the note; more are counted. */
const MAX_NAMED = 5;
/** Longest tool name shown: a plan is untrusted and may hold a long one. */
const MAX_NAME = 60;

/** The checks skipped for this compile, in {@link SKIPPABLE_CHECKS} order. */
export function skippedChecks(result: CompileResult, options: SkippedChecksOptions): SkippedCheck[] {
  const skipped: SkippedCheck[] = [];
  if (!options.tools) skipped.push('tools', 'arguments');
  // Compile checks input reads only when some input is given (a flag or the plan's own message).
  const plan = result.plan;
  if (plan && plan.input === undefined && plan.calls.some((c) => c.reads.some((r) => r.kind === 'input')))
    skipped.push('input');
  return skipped;
}

/**
 * `plan: note: no --tools given: tool names and arguments were not checked (3 calls use tools
 * not checked: getWeather, notify)`, one line per flag; '' when nothing was skipped.
 */
export function formatSkippedNote(result: CompileResult, skipped: readonly SkippedCheck[]): string {
  let out = '';
  if (skipped.includes('tools')) {
    const { calls, names } = toolsUsed(result.document?.calls ?? []);
    const listed = names.slice(0, MAX_NAMED).map((name) => clip(name, MAX_NAME));
    if (names.length > listed.length) listed.push(`and ${names.length - listed.length} more`);
    const which =
      calls > 0
        ? ` (${plural(calls, 'call')} use${calls === 1 ? 's' : ''} tools not checked: ${listed.join(', ')})`
        : '';
    out += `plan: note: no --tools given: tool names and arguments were not checked${which}; pass --tools <file> to check them\n`;
  }
  if (skipped.includes('input')) {
    out += 'plan: note: no --input given: †input reads were not checked; pass --input <file> to check them\n';
  }
  return out;
}

/** The calls that name a tool, and the distinct names in the order they first appear. */
function toolsUsed(calls: readonly unknown[]): { calls: number; names: string[] } {
  const names = new Set<string>();
  let count = 0;
  // A flat loop over the calls as parsed (already bounded by the limits): one key read per call.
  for (const call of calls) {
    if (call === null || typeof call !== 'object' || Array.isArray(call)) continue;
    const tool = Object.hasOwn(call, '_tool') ? (call as Record<string, unknown>)._tool : undefined;
    if (typeof tool !== 'string') continue;
    count++;
    names.add(tool);
  }
  return { calls: count, names: [...names] };
}
