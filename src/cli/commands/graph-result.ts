/**
 * `plan graph --result <run.json>`: the object `plan run --json` printed, read back as the call
 * reports the pictures colour their nodes by (inside workflows too). The file is untrusted: it is
 * read within the limits, walked with an explicit stack (workflow reports nest), and only what
 * the pictures use is kept. It must be a run of this plan: its calls, in order, have the plan's ids.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Limits } from '../../language/limits.js';
import {
  CALL_STATUSES,
  type CallError,
  type CallReport,
  type CallStatus,
  type ElementReport,
  type RunStatus,
} from '../../run/types.js';
import { CliInputError } from '../cli-input-error.js';
import { type CliIo, readJsonObject } from '../io.js';

type Report = { -readonly [K in keyof CallReport]: CallReport[K] };
const ELEMENT_STATUSES = new Set(['succeeded', 'failed', 'not_run']);
const RUN_STATUSES = new Set(['succeeded', 'failed', 'cancelled', 'rejected']);

export async function readRunResult(
  file: string,
  plan: CompiledPlan,
  options: { readonly io: CliIo; readonly limits: Limits | undefined },
): Promise<{ readonly calls: readonly CallReport[] }> {
  const value = await readJsonObject(file, {
    io: options.io,
    what: '--result file',
    ...(options.limits && { limits: options.limits }),
  });
  const top = value.calls;
  const bad = (why: string) =>
    new CliInputError(
      `--result '${file}' is not a run of this plan: ${why}; give it what \`plan run --json\` printed for this plan`,
    );
  if (!Array.isArray(top)) throw bad('it has no "calls" array');
  if (top.length !== plan.calls.length)
    throw bad(`it has ${top.length} calls, and the plan ${plan.calls.length}`);
  const calls: Report[] = [];
  // Each entry: calls read from the file, and the array their reports go to.
  const stack: { from: readonly unknown[]; to: Report[] }[] = [{ from: top, to: calls }];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    for (const raw of from) {
      const report = readCall(raw);
      if (report === null) continue;
      to.push(report);
      const workflow = (raw as { workflow?: unknown }).workflow;
      const inner = subRun(workflow);
      if (inner !== null) {
        const reports: Report[] = [];
        report.workflow = { status: inner.status, calls: reports };
        stack.push({ from: inner.calls, to: reports });
      }
      const elements = (raw as { elements?: unknown }).elements;
      if (Array.isArray(elements)) report.elements = elements.map(readElement);
    }
  }
  plan.calls.forEach((call, i) => {
    if (calls[i]?.id !== call.id)
      throw bad(`its call ${i + 1} is ${JSON.stringify(calls[i]?.id ?? null)}, and the plan's "${call.id}"`);
  });
  return { calls };
}

/** A call's report from what the file has of it; null when it is not one. */
function readCall(raw: unknown): Report | null {
  if (raw === null || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  if (typeof c.id !== 'string' || !(CALL_STATUSES as readonly unknown[]).includes(c.status)) return null;
  return {
    id: c.id,
    tool: typeof c.tool === 'string' ? c.tool : '',
    status: c.status as CallStatus,
    branch: typeof c.branch === 'number' ? c.branch : null,
    handled: c.handled === true,
    attempts: typeof c.attempts === 'number' ? c.attempts : 0,
    startedAt: null,
    endedAt: null,
    error: readError(c.error),
  };
}

function readError(raw: unknown): CallError | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { message, code } = raw as Record<string, unknown>;
  return { message: typeof message === 'string' ? message : '', ...(typeof code === 'string' && { code }) };
}

function readElement(raw: unknown): ElementReport {
  const e = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const status = ELEMENT_STATUSES.has(e.status as string) ? (e.status as ElementReport['status']) : 'not_run';
  return { status, error: readError(e.error) };
}

function subRun(raw: unknown): { status: RunStatus; calls: readonly unknown[] } | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { status, calls } = raw as Record<string, unknown>;
  if (!RUN_STATUSES.has(status as string) || !Array.isArray(calls)) return null;
  return { status: status as RunStatus, calls };
}
