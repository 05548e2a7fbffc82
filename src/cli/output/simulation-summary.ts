/**
 * A dry run on the terminal: one line per scenario (its choices, how many calls run, which
 * are skipped), the argument errors as `file:line:col: error E_SIM_ARGS: ...` lines, then the
 * critical path and the widest level, the defaults filled into calls' arguments. Used by `plan simulate` and before a lazy plan's prompt.
 */
import type { Simulation } from '../../simulate/types.js';
import { formatDiagnostics, paint, plural } from './format.js';

export interface SimulationSummaryOptions {
  /** The plan's name in diagnostics. */
  readonly file: string;
  readonly color: boolean;
  /**
   * Most scenario lines; the rest are counted in one line.
   * @default Infinity
   */
  readonly maxRows?: number;
  /**
   * Most ids listed per skip list and path before "… N more".
   * @default 8
   */
  readonly maxIds?: number;
}

export function formatSimulation(simulation: Simulation, options: SimulationSummaryOptions): string {
  const c = options.color;
  const maxRows = options.maxRows ?? Infinity;
  const maxIds = options.maxIds ?? 8;
  const scenarios = simulation.scenarios;
  const groups = simulation.branchGroups.length;
  let out = `${paint('dry run', c, 'bold')}: ${plural(scenarios.length, 'scenario')}${simulation.truncated ? ' (truncated: more exist)' : ''}`;
  out += groups > 0 ? `, ${plural(groups, 'branch group')}\n` : '\n';
  const rows = scenarios.slice(0, maxRows).map((s, k) => {
    const choices = Object.entries(s.choices).map(([id, alt]) => `${id}=${alt}`);
    for (const id of s.emptyForEach ?? []) choices.push(`${id}=[]`);
    // A choice inside a workflow call: the calls down to it, `/` between them.
    for (const w of s.workflowChoices ?? []) choices.push(`${[...w.within, w.call].join('/')}=${w.choice}`);
    const choice = choices.length === 0 ? '(no branches)' : choices.join(' ');
    const skips = s.skipped.length === 0 ? 'skips none' : `skips ${ids(s.skipped, maxIds)}`;
    const errors =
      s.argumentErrors.length > 0
        ? paint(`  ${plural(s.argumentErrors.length, 'argument error')}`, c, 'red')
        : '';
    return { label: `#${k}`, choice, rest: `runs ${s.run.length}, ${skips}${errors}` };
  });
  const labelWidth = Math.max(0, ...rows.map((r) => r.label.length));
  const choiceWidth = Math.min(40, Math.max(0, ...rows.map((r) => r.choice.length)));
  for (const r of rows)
    out += `  ${r.label.padEnd(labelWidth)}  ${r.choice.padEnd(choiceWidth)}  ${r.rest}\n`;
  if (scenarios.length > rows.length)
    out += `  … ${plural(scenarios.length - rows.length, 'more scenario')}\n`;
  const errors = simulation.diagnostics.filter((d) => d.code === 'E_SIM_ARGS');
  if (errors.length > 0) out += formatDiagnostics(errors, { file: options.file, color: c });
  out += `  critical path: ${ids(simulation.criticalPath, maxIds, ' -> ')} (weight ${simulation.criticalPathWeight})\n`;
  out += `  max parallelism: ${simulation.maxParallelism} (level ${simulation.widestLevel.level}: ${ids(simulation.widestLevel.calls, maxIds)})\n`;
  for (const [id, each] of Object.entries(simulation.forEach ?? {}))
    out += `  for-each ${id}: ${plural(each.elements, 'element')} sampled, ${each.lanes} at once (weight ${each.weight})\n`;
  // The defaults a call's tool fills in: what it will run with that the plan does not say.
  for (const [id, filled] of Object.entries(simulation.defaults ?? {})) {
    const shown = Object.entries(filled).map(([at, value]) => `${at}=${JSON.stringify(value)}`);
    out += `  defaults ${id}: ${ids(shown, maxIds)}\n`;
  }
  for (const [id, sub] of Object.entries(simulation.workflows ?? {})) {
    const inner = sub.tooDeep
      ? 'not walked (too deep)'
      : `runs ${sub.run.length} of ${plural(sub.calls, 'call')}, critical path ${ids(sub.criticalPath, maxIds, ' -> ')} (weight ${sub.criticalPathWeight})`;
    const errors =
      sub.argumentErrors.length > 0
        ? paint(`, ${plural(sub.argumentErrors.length, 'argument error')}`, c, 'red')
        : '';
    out += `  workflow ${id} (${sub.workflow}): ${inner}${errors}\n`;
  }
  return out;
}

function ids(list: readonly string[], max: number, separator = ', '): string {
  if (list.length <= max) return list.join(separator);
  return `${list.slice(0, max).join(separator)}${separator}… ${list.length - max} more`;
}
