/** The compiled graph: order, levels, critical path, cycles, ids, modes. */
import { describe, expect, it } from 'vitest';
import { type CompiledPlan, compile } from '../../src/index.js';
import { compileErrors, compileOk, depsOf, doc, only, positionInString, positionOfText } from './helpers.js';

type Call = Record<string, unknown>;
const call = (id: string, reads: string[], writes?: string): Call => {
  const c: Call = { _tool: 't', _id: id };
  reads.forEach((ref, k) => {
    c[`in${k}`] = ref;
  });
  if (writes) c._outputPath = writes;
  return c;
};

/** Checks a plan's order, levels and critical path against its own dependencies. */
function expectConsistent(plan: CompiledPlan): void {
  const n = plan.calls.length;
  expect([...plan.order].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
  const position = new Map(plan.order.map((c, k) => [c, k]));
  let longest = -1;
  for (const c of plan.calls) {
    let level = 0;
    for (const d of c.dependencies) {
      expect(position.get(d.from)!).toBeLessThan(position.get(c.index)!);
      level = Math.max(level, plan.levels[d.from]! + 1);
    }
    expect(plan.levels[c.index]).toBe(level);
    longest = Math.max(longest, level);
  }
  expect(plan.criticalPath).toHaveLength(n === 0 ? 0 : longest + 1);
  for (let k = 1; k < plan.criticalPath.length; k++) {
    expect(depsOf(plan, plan.criticalPath[k]!)).toContain(plan.criticalPath[k - 1]);
  }
  if (plan.criticalPath.length > 0) expect(plan.levels[plan.criticalPath[0]!]).toBe(0);
  let edges = 0;
  for (const c of plan.calls) edges += c.dependencies.length;
  expect(plan.edgeCount).toBe(edges);
}

describe('order, levels and critical path', () => {
  it('independent calls keep array order, all at level 0', () => {
    const plan = compileOk(doc([call('a', []), call('b', []), call('c', [])]));
    expect(plan.order).toEqual([0, 1, 2]);
    expect(plan.levels).toEqual([0, 0, 0]);
    expect(plan.criticalPath).toHaveLength(1);
    expect(plan.edgeCount).toBe(0);
  });

  it('a chain', () => {
    const plan = compileOk(
      doc([
        call('a', [], '†state.a'),
        call('b', ['†state.a'], '†state.b'),
        call('c', ['†state.b'], '†state.c'),
      ]),
    );
    expect(plan.order).toEqual([0, 1, 2]);
    expect(plan.levels).toEqual([0, 1, 2]);
    expect(plan.criticalPath).toEqual([0, 1, 2]);
    expect(plan.edgeCount).toBe(2);
    expectConsistent(plan);
  });

  it('a diamond', () => {
    const plan = compileOk(
      doc([
        call('top', [], '†state.x'),
        call('left', ['†state.x'], '†state.l'),
        call('right', ['†state.x'], '†state.r'),
        call('join', ['†state.l && †state.r']),
      ]),
    );
    expect(plan.levels).toEqual([0, 1, 1, 2]);
    expect(plan.order).toEqual([0, 1, 2, 3]);
    expect(plan.criticalPath).toHaveLength(3);
    expect(plan.criticalPath[0]).toBe(0);
    expect(plan.criticalPath[2]).toBe(3);
    expectConsistent(plan);
  });

  it('the critical path is the longer of two chains', () => {
    const plan = compileOk(
      doc([
        call('s1', [], '†state.s1'),
        call('l1', [], '†state.l1'),
        call('l2', ['†state.l1'], '†state.l2'),
        call('s2', ['†state.s1'], '†state.s2'),
        call('l3', ['†state.l2'], '†state.l3'),
        call('l4', ['†state.l3']),
      ]),
    );
    expect(plan.criticalPath.map((i) => plan.calls[i]!.id)).toEqual(['l1', 'l2', 'l3', 'l4']);
    expect(plan.levels).toEqual([0, 0, 1, 1, 2, 3]);
    expectConsistent(plan);
  });

  it('a forward reference moves the writer forward and nothing else', () => {
    const plan = compileOk(doc([call('r', ['†state.x']), call('w', [], '†state.x'), call('z', [])]));
    expect(plan.order).toEqual([1, 0, 2]);
    expect(plan.levels).toEqual([1, 0, 0]);
    expectConsistent(plan);
  });

  it('an empty plan', () => {
    const plan = compileOk('[]');
    expect(plan.calls).toEqual([]);
    expect(plan.order).toEqual([]);
    expect(plan.levels).toEqual([]);
    expect(plan.criticalPath).toEqual([]);
  });

  it('indexOf finds calls by id, explicit or default', () => {
    const plan = compileOk(doc([call('first', []), { _tool: 't' }]));
    expect(plan.indexOf('first')).toBe(0);
    expect(plan.indexOf('1')).toBe(1);
    expect(plan.indexOf('0')).toBeUndefined();
    expect(plan.indexOf('nope')).toBeUndefined();
  });
});

describe('compiled calls', () => {
  it('carry their tool, id, arguments without meta keys, output path and literals', () => {
    const plan = compileOk(
      doc([
        { _tool: 'search', _id: 's', q: 'x', n: 2, tag: '††literal', _outputPath: '†state.ok || †state.err' },
        { _tool: 'think', _output: { answer: 1 }, _outputPath: '†state.a && †state.b' },
      ]),
    );
    const [s, t] = plan.calls;
    expect(s).toMatchObject({
      index: 0,
      id: 's',
      tool: 'search',
      pointer: '/0',
      args: { q: 'x', n: 2, tag: '††literal' },
    });
    expect(s!.literals).toEqual(['/tag']);
    expect(s!.outputPath).toMatchObject({ op: '||', text: '†state.ok || †state.err' });
    expect(s!.outputPath!.paths.map((p) => p.segments)).toEqual([['ok'], ['err']]);
    expect(s!.hasOutput).toBe(false);
    expect(t).toMatchObject({ id: '1', hasOutput: true, output: { answer: 1 } });
    expect(t!.outputPath!.op).toBe('&&');
    expect(Object.keys(t!.args)).toEqual([]);
  });
});

describe('cycles', () => {
  it('names the whole cycle with ids, and points at the forward reference that closes it', () => {
    const text = doc([
      call('a', ['†state.c'], '†state.a'),
      call('b', ['†state.a'], '†state.b'),
      call('c', ['†state.b'], '†state.c'),
    ]);
    const d = only(compileErrors(text).diagnostics, 'E_CYCLE');
    expect(d.message).toContain('a -> b -> c -> a');
    expect(d.pointer).toBe('/0/in0');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, '†state.c', 0));
    expect(d.hint).toBeTruthy();
  });

  it('with default ids', () => {
    const d = only(
      compileErrors(
        doc([
          { _tool: 't', x: '†state.b', _outputPath: '†state.a' },
          { _tool: 't', x: '†state.a', _outputPath: '†state.b' },
        ]),
      ).diagnostics,
      'E_CYCLE',
    );
    expect(d.message).toContain('0 -> 1 -> 0');
  });

  it('a call reading only what it writes itself is a cycle of one', () => {
    const text = doc([call('loop', ['†state.x'], '†state.x')]);
    const d = only(compileErrors(text).diagnostics, 'E_CYCLE');
    expect(d.message).toContain('loop -> loop');
    expect(d).toMatchObject({ call: 'loop', pointer: '/0/in0' });
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, '†state.x', 0));
  });

  it('the cycle is named starting at its first call in array order, in data-flow direction', () => {
    const d = only(
      compileErrors(
        doc([
          call('p', ['†state.r'], '†state.p'),
          call('q', ['†state.p'], '†state.q'),
          call('r', ['†state.q'], '†state.r'),
          call('s', ['†state.q']),
        ]),
      ).diagnostics,
      'E_CYCLE',
    );
    // p writes p, q reads it; q writes q, r reads it; r writes r, p reads it.
    expect(d.message).toMatch(/dependency cycle: p -> q -> r -> p\b/);
    expect(d.message).not.toMatch(/-> s\b|\bs ->/);
  });

  it('two separate cycles are two diagnostics; calls after a cycle are not reported', () => {
    const result = compileErrors(
      doc([
        call('a', ['†state.b'], '†state.a'),
        call('b', ['†state.a'], '†state.b'),
        call('c', ['†state.d'], '†state.c'),
        call('d', ['†state.c'], '†state.d'),
        call('after', ['†state.a && †state.c']),
      ]),
    );
    const cycles = result.diagnostics.filter((d) => d.code === 'E_CYCLE');
    expect(cycles.map((d) => d.message.match(/cycle: ([^(]*)/)![1]!.trim())).toEqual([
      'a -> b -> a',
      'c -> d -> c',
    ]);
    expect(result.diagnostics.every((d) => d.code === 'E_CYCLE')).toBe(true);
  });

  it('a forward reference plus write-after-read closes a cycle', () => {
    // r reads x from the initial state, so the later writer of x waits for r; r also reads y,
    // which only that writer writes.
    const d = only(
      compileErrors(doc([call('r', ['†state.x', '†state.y']), call('w', [], '†state.x && †state.y')]), {
        state: { x: 1 },
      }).diagnostics,
      'E_CYCLE',
    );
    expect(d.message).toMatch(/r -> w -> r|w -> r -> w/);
  });

  it('a cycle of three among many independent calls', () => {
    const calls: Record<string, unknown>[] = [];
    for (let i = 0; i < 50; i++) calls.push(call(`free${i}`, [], `†state.free${i}`));
    calls.push(
      call('x', ['†state.z'], '†state.x'),
      call('y', ['†state.x'], '†state.y'),
      call('z', ['†state.y'], '†state.z'),
    );
    const d = only(compileErrors(doc(calls)).diagnostics, 'E_CYCLE');
    expect(d.message).toContain('x -> y -> z -> x');
  });
});

describe('duplicate ids', () => {
  it('an explicit duplicate points at the second _id', () => {
    const text = doc([call('same', []), call('other', []), call('same', [])]);
    const d = only(compileErrors(text).diagnostics, 'E_DUPLICATE_ID');
    expect(d).toMatchObject({ pointer: '/2/_id', call: 'same' });
    expect(d.message).toMatch(/call 0/);
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"same"', 0, 1));
  });

  it('an explicit id equal to another call’s default id points at the call with the default', () => {
    const text = doc([{ _tool: 't', _id: '1' }, { _tool: 't' }]);
    const d = only(compileErrors(text).diagnostics, 'E_DUPLICATE_ID');
    expect(d).toMatchObject({ pointer: '/1', call: '1' });
    expect(d.hint).toMatch(/default id/);
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '{', 0, 1));
  });

  it('three calls with one id: two diagnostics', () => {
    const result = compileErrors(doc([call('x', []), call('x', []), call('x', [])]));
    expect(result.diagnostics.filter((d) => d.code === 'E_DUPLICATE_ID').map((d) => d.pointer)).toEqual([
      '/1/_id',
      '/2/_id',
    ]);
  });

  it('an _id that is not a non-empty string is E_SHAPE and the default id is used', () => {
    const result = compileErrors(
      doc([
        { _tool: 't', _id: 7 },
        { _tool: 't', _id: '' },
      ]),
    );
    expect(result.diagnostics.map((d) => [d.code, d.pointer, d.call])).toEqual([
      ['E_SHAPE', '/0/_id', '0'],
      ['E_SHAPE', '/1/_id', '1'],
    ]);
  });
});

describe('modes', () => {
  const latentPlan = (mode?: string) =>
    doc({
      type: 'plan',
      ...(mode && { mode }),
      plan: [{ _tool: 'think', _output: 'x', _outputPath: '†state.t' }],
    });

  it('the plan takes the document mode', () => {
    expect(compileOk(latentPlan()).mode).toBe('eager');
    expect(compileOk(doc([{ _tool: 't' }])).mode).toBe('eager');
    expect(compileOk(doc({ type: 'plan', mode: 'lazy', plan: [{ _tool: 't' }] })).mode).toBe('lazy');
  });

  it('_output in a lazy plan is E_LAZY_OUTPUT at the key', () => {
    const text = latentPlan('lazy');
    const d = only(compileErrors(text).diagnostics, 'E_LAZY_OUTPUT');
    expect(d.pointer).toBe('/plan/0/_output');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"_output"'));
  });

  it('the mode option makes a plan lazy, never a lazy one eager (the lazier wins)', () => {
    expect(only(compile(latentPlan('eager'), { mode: 'lazy' }).diagnostics, 'E_LAZY_OUTPUT')).toBeDefined();
    expect(compileOk(doc([{ _tool: 't' }]), { mode: 'lazy' }).mode).toBe('lazy');
    expect(compileOk(doc([{ _tool: 't' }]), { mode: 'eager' }).mode).toBe('eager');
    // A lazy document stays lazy under an eager option: its _output is still E_LAZY_OUTPUT.
    const lazy = doc({ type: 'plan', mode: 'lazy', plan: [{ _tool: 't' }] });
    expect(compileOk(lazy, { mode: 'eager' }).mode).toBe('lazy');
    expect(only(compile(latentPlan('lazy'), { mode: 'eager' }).diagnostics, 'E_LAZY_OUTPUT')).toBeDefined();
  });

  it('a bad mode option is a TypeError', () => {
    expect(() => compile('[]', { mode: 'fast' as 'lazy' })).toThrow(TypeError);
  });
});
