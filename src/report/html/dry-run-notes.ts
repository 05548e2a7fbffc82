/**
 * What a dry-run report says about parallelism, in its header and under its Steps panel: one
 * number for both, the simulation's (the most calls that run at once in any one scenario). The
 * panel draws every scenario's calls at their level in the graph together, so calls on
 * exclusive branches share a step there without ever running together: the panel says so
 * instead of counting them as running at once. And how a scenario's button names its choices.
 */
import type { Scenario, Simulation } from '../../simulate/types.js';
import { clip } from './graph-svg.js';

/** The header's clause: how many calls run at once at most, and which ones. */
export function widestStepText(sim: Simulation): string {
  const n = sim.maxParallelism;
  return `widest step: ${n} ${n === 1 ? 'call' : 'calls'} at once at most (${clip(sim.widestLevel.calls.join(', '), 200)})`;
}

/**
 * The Steps panel's note.
 * @param lanes The most calls the panel draws in one step (every scenario's together).
 */
export function stepsNote(sim: Simulation, lanes: number): string {
  const shared =
    lanes > sim.maxParallelism
      ? `; up to ${lanes} share a step across scenarios, but no scenario runs more than ${sim.maxParallelism} at once`
      : `; ${sim.maxParallelism} at most at once`;
  return `no real times in a dry run: each call at its step (its level in the graph), the calls of one step side by side, every scenario's together${shared}`;
}

/**
 * A scenario's choices that differ from the baseline, as its button shows them (`pay→1`); one
 * inside a workflow call with the calls down to it, `/` between them (`w/pick→1`).
 */
export function variedChoices(scenario: Scenario): string[] {
  const shown = scenario.varies.map((id) => `${clip(id, 24)}→${scenario.choices[id]!}`);
  for (const w of scenario.workflowChoices ?? [])
    if (w.varies) shown.push(`${clip([...w.within, w.call].join('/'), 40)}→${w.choice}`);
  return shown;
}
