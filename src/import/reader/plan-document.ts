import type { ImportedSample, ImportProblem, ManifestTool } from '../types.js';

/** The context document every importer writes: the task as an input message, then the plan. */
export function planDocument(
  task: string | undefined,
  mode: 'eager' | 'lazy',
  calls: readonly unknown[],
): unknown[] {
  const plan = { type: 'plan', mode, plan: calls };
  return task === undefined ? [plan] : [{ type: 'input', task }, plan];
}

/**
 * Argument names a plan cannot carry: planmode reads every key that starts with `_` as one of
 * its own (`_tool`, `_outputPath`), so a dataset's argument named that way is left out, with a
 * warning, rather than read as a meta key.
 */
export function isMetaKey(name: string): boolean {
  return name.startsWith('_');
}

/** What one sample is made of, as every reader has it at the end. */
export interface SampleParts {
  readonly id: string;
  readonly line: number;
  readonly task: string | undefined;
  readonly mode: 'eager' | 'lazy';
  readonly calls: readonly unknown[];
  readonly tools: readonly ManifestTool[];
  readonly warnings: readonly ImportProblem[];
}

/** The sample: its context document (task, then plan) and its manifest. */
export function importedSample(parts: SampleParts): ImportedSample {
  return {
    id: parts.id,
    ...(parts.task !== undefined ? { task: parts.task } : {}),
    plan: planDocument(parts.task, parts.mode, parts.calls),
    tools: { tools: parts.tools },
    line: parts.line,
    warnings: parts.warnings,
  };
}
