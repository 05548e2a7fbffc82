/**
 * Why a skipped call's value was missing, told from what the run recorded: the reference the
 * call lacked (its report's `missing`), the calls the compiled plan bound that read to, and
 * how each of them ended. `†state.sunny was never written (weather wrote †state.rainy instead)`.
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import { pathsOverlap, type Path } from '../../language/paths.js';
import type { CallReport } from '../../run/types.js';
import { clip } from './format.js';

/** Writers explained per reference; more are counted. */
const MAX_WRITERS = 3;

/** How long a name or path may be in a reason; plans are untrusted and may hold long ones. */
const MAX_NAME = 80;

/**
 * @param plan The compiled plan that ran.
 * @param calls The run's call reports, in plan order.
 * @param index The skipped call's index in the plan.
 * @param reference The reference it lacked, as written (`†state.sunny`).
 */
export function explainMissing(
  plan: CompiledPlan,
  calls: readonly CallReport[],
  index: number,
  reference: string,
): string {
  const shown = clip(reference, MAX_NAME);
  const read = plan.calls[index]?.reads.find((r) => r.ref.text === reference);
  if (!read) return `${shown} had no value`;
  if (read.kind === 'input') return `${shown} was not given (no --input value holds it)`;
  if (read.writers.length === 0)
    return `${shown} had no value (no call writes it, and the initial state lacks it)`;
  const reasons = read.writers
    .slice(0, MAX_WRITERS)
    .map((w) => writerOutcome(plan.calls[w], calls[w], read.path));
  const more = read.writers.length - reasons.length;
  if (more > 0) reasons.push(`and ${more} more writer${more === 1 ? '' : 's'}`);
  return `${shown} was never written (${reasons.join('; ')})`;
}

/** What one call bound to write the path did instead. */
function writerOutcome(call: CompiledCall | undefined, report: CallReport | undefined, read: Path): string {
  if (!call || !report) return 'its writer is unknown';
  const id = clip(report.id, MAX_NAME);
  const written = writtenText(call, report);
  switch (report.status) {
    case 'succeeded':
      if (written === null) return `${id} ran but writes nothing there`;
      return writtenOverlaps(call, report, read)
        ? `${id} wrote ${written} without it`
        : `${id} wrote ${written} instead`;
    case 'failed':
      return report.handled && written !== null
        ? `${id} failed and wrote its error to ${written}`
        : `${id} failed`;
    case 'skipped':
      return `${id} was skipped`;
    case 'upstream_failed':
      return report.error
        ? `${id} did not run: it follows a call that failed`
        : `${id} did not run: a value it reads comes from a call that failed`;
    case 'cancelled':
      return `${id} was cancelled`;
    case 'rejected':
      return `${id} was rejected at approval`;
  }
}

/** The output path the call wrote, as written: its alternative when it branched. */
function writtenText(call: CompiledCall, report: CallReport): string | null {
  const output = call.outputPath;
  if (!output) return null;
  const text = output.op === '||' && report.branch !== null ? output.refs[report.branch]?.text : output.text;
  return text === undefined ? null : clip(text, MAX_NAME);
}

function writtenOverlaps(call: CompiledCall, report: CallReport, read: Path): boolean {
  const output = call.outputPath;
  if (!output) return false;
  const paths = output.op === '||' && report.branch !== null ? [output.paths[report.branch]] : output.paths;
  return paths.some((path) => path !== undefined && pathsOverlap(path, read));
}
