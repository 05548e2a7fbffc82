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
