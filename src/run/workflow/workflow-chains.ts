/**
 * Which workflows call which: the order to compile them in (a workflow after the workflows its
 * plan calls, whose output types it reads), the chains that reach back to where they started
 * (`research → summarize → research`), and every plain tool each workflow can reach.
 *
 * A depth-first walk with an explicit stack (never recursion: definitions come from files),
 * each frame holding the workflow and the index of the next callee to visit. A chain longer
 * than MAX_WORKFLOW_DEPTH is refused: that deep a nesting is a mistake, and each level is a
 * run inside a run when it executes.
 */

/** Most workflows in one chain of calls (a workflow calling a workflow calling ...). */
export const MAX_WORKFLOW_DEPTH = 32;

export interface WorkflowChains {
  /** The workflows to compile, each after those it calls; those in a cycle are left out. */
  readonly order: readonly string[];
  /** One problem per cycle or over-deep chain, naming it. */
  readonly problems: readonly string[];
  /** Per workflow, the plain tools its plan can call, directly or through other workflows. */
  readonly reaches: ReadonlyMap<string, ReadonlySet<string>>;
}

interface Frame {
  readonly name: string;
  next: number;
}

/**
 * @param calls Per workflow (in definition order), the tool names its plan calls, in order.
 */
export function workflowChains(calls: ReadonlyMap<string, readonly string[]>): WorkflowChains {
  const order: string[] = [];
  const problems: string[] = [];
  const state = new Map<string, 'open' | 'done' | 'bad'>();
  const reaches = new Map<string, Set<string>>();
  for (const start of calls.keys()) {
    if (state.has(start)) continue;
    const stack: Frame[] = [{ name: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const callees = calls.get(frame.name)!;
      if (frame.next < callees.length) {
        const callee = callees[frame.next++]!;
        if (!calls.has(callee)) continue;
        const seen = state.get(callee);
        if (seen === 'open') {
          const from = stack.findIndex((f) => f.name === callee);
          const chain = [...stack.slice(from).map((f) => f.name), callee];
          problems.push(
            `workflow '${callee}' reaches itself: ${chain.join(' → ')}; a workflow may not call itself, directly or through others`,
          );
          for (const f of stack.slice(from)) state.set(f.name, 'bad');
        } else if (seen === undefined) {
          if (stack.length >= MAX_WORKFLOW_DEPTH) {
            const chain = [...stack.map((f) => f.name), callee];
            problems.push(
              `workflow '${start}' calls workflows ${chain.length} deep (${chain.join(' → ')}); at most ${MAX_WORKFLOW_DEPTH} may nest`,
            );
            for (const f of stack) state.set(f.name, 'bad');
            break;
          }
          state.set(callee, 'open');
          stack.push({ name: callee, next: 0 });
        }
        continue;
      }
      stack.pop();
      const reached = new Set<string>();
      let bad = state.get(frame.name) === 'bad';
      for (const callee of callees) {
        if (!calls.has(callee)) reached.add(callee);
        else if (state.get(callee) === 'bad' || !reaches.has(callee)) bad = true;
        else for (const tool of reaches.get(callee)!) reached.add(tool);
      }
      state.set(frame.name, bad ? 'bad' : 'done');
      if (bad) continue;
      reaches.set(frame.name, reached);
      order.push(frame.name);
    }
    // A chain cut at the depth limit leaves its frames open: none of them is compiled.
    for (const [name, s] of state) if (s === 'open') state.set(name, 'bad');
  }
  return { order, problems, reaches };
}
