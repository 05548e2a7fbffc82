/**
 * The join pattern's graph, pinned: writers of one path on exclusive alternatives of a branch are
 * not ordered after each other, a reader waits for all of them, and anything else that writes
 * or reads there is ordered as usual. Each shape's edges and warnings are the ones the compiler
 * gave before the exclusive writers were summarised per path (see exclusive-writers.ts), but
 * for the reads that now also depend on an earlier writer they may still see (seen-writers.ts):
 * each such shape says which, and when the read sees its value. The dry run agrees: in each of
 * its scenarios, every read's value comes from a writer compile bound the read to.
 */
import { describe, expect, it } from 'vitest';
import { compile, simulate, type Tool } from '../../src/index.js';

const tools = [{ name: 't', execute: () => 1 }];
const alternatives = (n: number, prefix = 'a') => Array.from({ length: n }, (_, i) => `†state.${prefix}${i}`);
const call = (x: string | undefined, out?: string, y?: string) => ({
  _tool: 't',
  ...(x === undefined ? {} : { x }),
  ...(y === undefined ? {} : { y }),
  ...(out === undefined ? {} : { _outputPath: out }),
});

interface Shape {
  plan: unknown[];
  /** Per call, the calls it depends on. */
  from: number[][];
  /** The diagnostics, as `code@pointer`. */
  diagnostics: string[];
}

const shapes: Record<string, Shape> = {
  'a join': {
    plan: [
      call(undefined, alternatives(5).join(' || ')),
      ...alternatives(5).map((a) => call(a, '†state.j')),
      call('†state.j'),
    ],
    from: [[], [0], [0], [0], [0], [0], [1, 2, 3, 4, 5]],
    diagnostics: [],
  },
  'a join with a nested branch': {
    plan: [
      call(undefined, '†state.x || †state.y || †state.z'),
      call('†state.x', '†state.p || †state.q'),
      call('†state.p', '†state.j'),
      call('†state.q', '†state.j'),
      call('†state.y', '†state.j'),
      call('†state.z', '†state.j'),
      call('†state.j'),
    ],
    from: [[], [0], [1], [1], [0], [0], [2, 3, 4, 5]],
    diagnostics: [],
  },
  'a join whose nested branch comes after another alternative, and a writer twice on one alternative': {
    plan: [
      call(undefined, '†state.x || †state.y || †state.z'),
      call('†state.x', '†state.p || †state.q'),
      call('†state.y', '†state.j'),
      call('†state.p', '†state.j'),
      call('†state.q', '†state.j'),
      call('†state.z', '†state.j'),
      call('†state.p', '†state.j'),
      call('†state.j'),
    ],
    // 6 (on p) hides 3 (on p) only: when y, q or z is taken, 6 does not run and the reader sees
    // 2, 4 or 5. It was bound to 6 alone.
    from: [[], [0], [0], [1], [1], [0], [1, 2, 3, 4, 5], [2, 4, 5, 6]],
    diagnostics: ['W_MULTIPLE_WRITERS@/6/_outputPath'],
  },
  'a join with readers between the writers': {
    plan: [
      call(undefined, alternatives(4).join(' || ')),
      call('†state.a0', '†state.j'),
      call('†state.j'),
      call('†state.a1', '†state.j'),
      call('†state.j'),
      call('†state.a2', '†state.j'),
      call('†state.a3', '†state.j'),
      call('†state.j'),
    ],
    from: [[], [0], [1], [0, 2], [1, 3], [0, 2, 4], [0, 2, 4], [1, 3, 5, 6]],
    diagnostics: [],
  },
  'a join below a path written and read before': {
    plan: [
      call(undefined, alternatives(4).join(' || ')),
      call(undefined, '†state.o'),
      call('†state.o'),
      ...alternatives(4).map((a) => call(a, '†state.o.j')),
      call('†state.o'),
      call('†state.a1', '†state.o.j'),
      call('†state.o.j'),
    ],
    from: [
      [],
      [],
      [1],
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
      [1, 3, 4, 5, 6],
      [0, 1, 7, 2, 3, 4, 5, 6],
      // 8 (on a1) hides 4 (on a1) only: on a0, a2 or a3 the reader sees 3, 5 or 6's †state.o.j.
      // It was bound to 8 (and 1, above) alone.
      [3, 5, 6, 8, 1],
    ],
    diagnostics: [3, 4, 5, 6, 8].map((c) => `W_MULTIPLE_WRITERS@/${c}/_outputPath`),
  },
  'two writers on one alternative': {
    plan: [
      call(undefined, alternatives(3).join(' || ')),
      call('†state.a0', '†state.j'),
      call('†state.a1', '†state.j'),
      call('†state.a0', '†state.j'),
      call('†state.a2', '†state.j'),
      call('†state.j'),
    ],
    // 3 hides 1 (both on a0), not 2: on a1 the reader sees 2's value. It was bound to 3 and 4.
    from: [[], [0], [0], [0, 1, 2], [0, 1, 2], [2, 3, 4]],
    diagnostics: ['W_MULTIPLE_WRITERS@/3/_outputPath'],
  },
  'a writer that never runs': {
    plan: [
      call(undefined, alternatives(3).join(' || ')),
      call('†state.a0', '†state.j'),
      call('†state.a1', '†state.j', '†state.a2'),
      call('†state.a2', '†state.j'),
      call('†state.j'),
    ],
    // 2 never runs (it needs a1 and a2); on a0 the reader sees 1's value. It was bound to 3 alone.
    from: [[], [0], [0, 1], [0, 2], [1, 3]],
    diagnostics: [],
  },
  'writers guarded by two branches': {
    plan: [
      call(undefined, alternatives(3).join(' || ')),
      call(undefined, alternatives(3, 'b').join(' || ')),
      call('†state.a0', '†state.j', '†state.b0'),
      call('†state.a1', '†state.j', '†state.b0'),
      call('†state.a1', '†state.j', '†state.b1'),
      call('†state.a2', '†state.j'),
      call('†state.b2', '†state.j'),
      call('†state.j'),
    ],
    // 6 (on b2) runs with none of 2 to 5 surely: unless b2 is taken the reader sees theirs. It
    // was bound to 6 alone.
    from: [[], [], [0, 1], [0, 1], [0, 1], [0], [1, 2, 3, 4, 5], [2, 3, 4, 5, 6]],
    diagnostics: ['W_MULTIPLE_WRITERS@/6/_outputPath'],
  },
  'a join interrupted by a plain write, and one below it': {
    plan: [
      call(undefined, alternatives(3).join(' || ')),
      call('†state.a0', '†state.j'),
      call('†state.a1', '†state.j'),
      call(undefined, '†state.j'),
      call('†state.a2', '†state.j'),
      call('†state.a0', '†state.j.k'),
      call('†state.a1', '†state.j.k'),
      call('†state.j'),
    ],
    // 4 (on a2) does not hide the plain write 3: on a0 or a1 the reader sees 3's †state.j (with
    // 5's or 6's k). It was bound to 4, 5 and 6 only.
    from: [[], [0], [0], [1, 2], [0, 3], [0, 4], [0, 4], [3, 4, 5, 6]],
    diagnostics: ['W_MULTIPLE_WRITERS@/3/_outputPath', 'W_MULTIPLE_WRITERS@/4/_outputPath'],
  },
  'an exclusive writer inherits the readers its sibling already read from': {
    // 3 writes r over 2's read of r.k and already depends on 2 (it reads m); 4, on the other
    // alternative, is not ordered after 3, so it must inherit the order after 2 itself.
    plan: [
      call(undefined, '†state.p || †state.q'),
      call(undefined, '†state.r.k'),
      call('†state.r.k', '†state.m'),
      call('†state.p', '†state.r', '†state.m'),
      call('†state.q', '†state.r'),
    ],
    from: [[], [], [1], [0, 2, 1], [0, 1, 2]],
    diagnostics: ['W_MULTIPLE_WRITERS@/3/_outputPath'],
  },
};

describe('the join pattern’s edges', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(name, () => {
      const result = compile(shape.plan, { tools });
      expect(result.ok).toBe(true);
      expect(result.plan!.calls.map((c) => c.dependencies.map((d) => d.from))).toEqual(shape.from);
      expect(result.diagnostics.map((d) => `${d.code}@${d.pointer}`)).toEqual(shape.diagnostics);
    });
  }
});

describe('the join pattern’s reads agree with the dry run', () => {
  // `t` accepts no `x`: each read of one that runs is an argument error naming its writer.
  const rejecting: Tool[] = [
    {
      name: 't',
      inputSchema: { type: 'object', properties: { x: { not: {} } } },
      outputSchema: { type: 'object' },
    },
  ];
  for (const [name, shape] of Object.entries(shapes)) {
    it(name, () => {
      const plan = compile(shape.plan, { tools: rejecting }).plan!;
      const dry = simulate(plan, { tools: rejecting, maxScenarios: 1000 });
      let checked = 0;
      for (const scenario of dry.scenarios) {
        for (const e of scenario.argumentErrors) {
          if (e.path !== '/x' || e.writer === null) continue;
          // The dry run names the latest writer only: a writer of the object above the path
          // (bound too) never shows, so the bound writers hold the dry run's, not the reverse.
          const call = plan.calls.find((c) => c.id === e.call)!;
          const bound = call.reads.filter((read) => read.at === '/x').flatMap((read) => read.writers);
          expect(
            bound.map((w) => plan.calls[w]!.id),
            `${e.call} in ${JSON.stringify(scenario.choices)}`,
          ).toContain(e.writer);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
