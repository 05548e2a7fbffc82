/** SPEC 4: binding reads, the edges they make, overlap, and unresolved reads. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import {
  compileErrors,
  compileOk,
  depsOf,
  doc,
  only,
  positionInString,
  positionOfText,
  precedes,
} from './helpers.js';

type Call = Record<string, unknown>;
const w = (path: string, extra: Call = {}): Call => ({ _tool: 'write', _outputPath: path, ...extra });
const r = (ref: string, extra: Call = {}): Call => ({ _tool: 'read', v: ref, ...extra });

describe('binding a read', () => {
  it('(1) binds to the earlier call that writes the path', () => {
    const plan = compileOk(doc([w('†state.x'), r('†state.x')]));
    expect(plan.calls[1]!.reads).toHaveLength(1);
    expect(plan.calls[1]!.reads[0]).toMatchObject({ kind: 'earlier', writers: [0], at: '/v' });
    expect(plan.calls[1]!.dependencies).toEqual([expect.objectContaining({ from: 0, kind: 'data' })]);
  });

  it('(1) binds to every earlier call writing an overlapping path, both ways of prefix', () => {
    const below = compileOk(doc([w('†state.user.name'), w('†state.user.email'), r('†state.user')]));
    expect([...below.calls[2]!.reads[0]!.writers].sort()).toEqual([0, 1]);
    expect(depsOf(below, 2)).toEqual([0, 1]);

    const above = compileOk(doc([w('†state.user'), r('†state.user.name')]));
    expect(above.calls[1]!.reads[0]).toMatchObject({ kind: 'earlier', writers: [0] });
  });

  it('(1) an earlier writer wins over the initial state', () => {
    const plan = compileOk(doc([w('†state.x'), r('†state.x')]), { state: { x: 0 } });
    expect(plan.calls[1]!.reads[0]).toMatchObject({ kind: 'earlier', writers: [0] });
    expect(depsOf(plan, 1)).toEqual([0]);
  });

  it('(2) binds to the initial state when it holds the path, from options or a state message', () => {
    const fromOption = compileOk(doc([r('†state.config.depth')]), { state: { config: { depth: 3 } } });
    expect(fromOption.calls[0]!.reads[0]).toMatchObject({ kind: 'initial', writers: [] });
    expect(fromOption.calls[0]!.dependencies).toEqual([]);

    const fromMessage = compileOk(
      doc([
        { type: 'state', config: { depth: 3 } },
        { type: 'plan', plan: [r('†state.config')] },
      ]),
    );
    expect(fromMessage.calls[0]!.reads[0]!.kind).toBe('initial');
  });

  it('(2) null, false, 0 and "" in the initial state hold the path', () => {
    const state = { a: null, b: false, c: 0, d: '' };
    const plan = compileOk(doc([r('†state.a'), r('†state.b'), r('†state.c'), r('†state.d')]), { state });
    expect(plan.calls.map((c) => c.reads[0]!.kind)).toEqual(['initial', 'initial', 'initial', 'initial']);
  });

  it('(2) options.state is merged over the state message', () => {
    const text = doc([
      { type: 'state', a: 1 },
      { type: 'plan', plan: [r('†state.a'), r('†state.b')] },
    ]);
    expect(compile(text).ok).toBe(false);
    const plan = compileOk(text, { state: { b: 2 } });
    expect(plan.calls.map((c) => c.reads[0]!.kind)).toEqual(['initial', 'initial']);
  });

  it('(2) the initial state must hold the path itself, not only a prefix of it', () => {
    const result = compileErrors(doc([r('†state.user.name')]), { state: { user: {} } });
    expect(only(result.diagnostics, 'E_UNRESOLVED').pointer).toBe('/0/v');
  });

  it('(2) the initial state wins over a later writer, which then waits for the reader', () => {
    const plan = compileOk(doc([r('†state.x'), w('†state.x')]), { state: { x: 0 } });
    expect(plan.calls[0]!.reads[0]!.kind).toBe('initial');
    expect(depsOf(plan, 1)).toEqual([0]);
    expect(plan.order).toEqual([0, 1]);
  });

  it('(3) binds a forward reference to the later writer, which then runs first', () => {
    const plan = compileOk(doc([r('†state.x'), w('†state.x')]));
    expect(plan.calls[0]!.reads[0]).toMatchObject({ kind: 'later', writers: [1] });
    expect(depsOf(plan, 0)).toEqual([1]);
    expect(plan.order).toEqual([1, 0]);
  });

  it('(3) a forward reference to a path written twice later waits for both writes', () => {
    const plan = compileOk(doc([r('†state.x'), w('†state.x'), w('†state.x')]));
    expect(plan.calls[0]!.reads[0]!.kind).toBe('later');
    expect(precedes(plan.order, 1, 0)).toBe(true);
    expect(precedes(plan.order, 2, 0)).toBe(true);
    expect(precedes(plan.order, 1, 2)).toBe(true);
  });

  it('(3) forward references overlap by prefix too', () => {
    const plan = compileOk(doc([r('†state.user'), w('†state.user.name'), w('†state.user.mail')]));
    expect([...plan.calls[0]!.reads[0]!.writers].sort()).toEqual([1, 2]);
    expect(plan.order.indexOf(0)).toBe(2);
  });

  it('a state schema that declares the path makes an unwritten read "missing at run time", not an error', () => {
    const schema = { type: 'object', properties: { cache: { type: 'object', properties: { hit: {} } } } };
    const text = doc([
      { type: 'state', schema },
      { type: 'plan', plan: [r('†state.cache.hit'), r('†state.cache')] },
    ]);
    const plan = compileOk(text);
    expect(plan.calls.map((c) => c.reads[0]!.kind)).toEqual(['schema', 'schema']);
    expect(plan.calls[0]!.dependencies).toEqual([]);
  });

  it('a state schema that does not declare the path leaves the read unresolved', () => {
    const schema = { type: 'object', properties: { cache: {} } };
    const text = doc([
      { type: 'state', schema },
      { type: 'plan', plan: [r('†state.other')] },
    ]);
    expect(only(compile(text).diagnostics, 'E_UNRESOLVED').pointer).toBe('/1/plan/0/v');
  });

  it('input reads bind to the input and never make edges', () => {
    const plan = compileOk(doc([r('†input.q', { _outputPath: '†state.q' }), r('†input.q')]), {
      input: { q: 1 },
    });
    expect(plan.calls.map((c) => c.reads[0]!.kind)).toEqual(['input', 'input']);
    expect(plan.calls[1]!.dependencies).toEqual([]);
  });

  it('every reference of an expression and of nested arguments is a read', () => {
    const call = { _tool: 't', a: '†state.a || †state.b', deep: { list: [{ x: '†state.c && †state.d' }] } };
    const plan = compileOk(doc([w('†state.a'), w('†state.b'), w('†state.c'), w('†state.d'), call]));
    expect(plan.calls[4]!.reads.map((x) => [x.at, x.ref.text])).toEqual([
      ['/a', '†state.a'],
      ['/a', '†state.b'],
      ['/deep/list/0/x', '†state.c'],
      ['/deep/list/0/x', '†state.d'],
    ]);
    expect(depsOf(plan, 4)).toEqual([0, 1, 2, 3]);
  });

  it('a [*] read covers the path before the first [*]', () => {
    const plan = compileOk(doc([w('†state.items[0].id'), w('†state.other'), r('†state.items[*].name')]));
    expect(plan.calls[2]!.reads[0]!.path.segments).toEqual(['items']);
    expect(depsOf(plan, 2)).toEqual([0]);
  });

  it('index 0 and key "0" are the same place', () => {
    expect(depsOf(compileOk(doc([w('†state.list[0]'), r('†state.list["0"]')])), 1)).toEqual([0]);
    expect(depsOf(compileOk(doc([w('†state.list["0"].x'), r('†state.list.0')])), 1)).toEqual([0]);
  });

  it('fan-out (&&) writes every path and alternatives (||) count as writes of each', () => {
    const plan = compileOk(
      doc([
        w('†state.a && †state.b'),
        w('†state.ok || †state.err'),
        r('†state.b'),
        r('†state.ok'),
        r('†state.err'),
      ]),
    );
    expect(depsOf(plan, 2)).toEqual([0]);
    expect(depsOf(plan, 3)).toEqual([1]);
    expect(depsOf(plan, 4)).toEqual([1]);
  });
});

describe('overlap is by segment, not by text', () => {
  it('†state.user does not overlap †state.username', () => {
    const result = compile(doc([w('†state.user'), r('†state.username')]));
    expect(only(result.diagnostics, 'E_UNRESOLVED')).toBeDefined();
    const plan = compileOk(doc([w('†state.user'), w('†state.username')]));
    expect(plan.calls[1]!.dependencies).toEqual([]);
    expect(plan.diagnostics).toEqual([]);
  });

  it('a quoted key with a dot is one segment', () => {
    expect(compile(doc([w('†state["a.b"]'), r('†state.a.b')])).ok).toBe(false);
    expect(depsOf(compileOk(doc([w('†state["a.b"]'), r('†state["a.b"]')])), 1)).toEqual([0]);
  });
});

describe('write after write', () => {
  it('a later writer of the same path waits for the earlier one and is warned about', () => {
    const text = doc([w('†state.out'), w('†state.out')]);
    const result = compile(text);
    expect(result.ok).toBe(true);
    expect(depsOf(result.plan!, 1)).toEqual([0]);
    expect(result.plan!.calls[1]!.dependencies[0]!.kind).toBe('order');
    const warning = only(result.diagnostics, 'W_MULTIPLE_WRITERS');
    expect(warning).toMatchObject({ severity: 'warning', pointer: '/1/_outputPath', call: '1' });
    expect({ line: warning.line, column: warning.column }).toEqual(
      positionOfText(text, '"†state.out"', 0, 1),
    );
  });

  it('prefix overlap both ways orders the writers', () => {
    const deeperFirst = compile(doc([w('†state.a.b'), w('†state.a')]));
    expect(depsOf(deeperFirst.plan!, 1)).toEqual([0]);
    expect(only(deeperFirst.diagnostics, 'W_MULTIPLE_WRITERS').call).toBe('1');

    const shallowFirst = compile(doc([w('†state.a'), w('†state.a.b')]));
    expect(depsOf(shallowFirst.plan!, 1)).toEqual([0]);
    expect(only(shallowFirst.diagnostics, 'W_MULTIPLE_WRITERS').call).toBe('1');
  });

  it('three writers run in array order', () => {
    const plan = compileOk(doc([w('†state.x'), w('†state.x.y'), w('†state.x')]));
    expect(plan.order).toEqual([0, 1, 2]);
    expect(precedes(plan.order, 0, 2)).toBe(true);
  });
});

describe('write after read', () => {
  it('a writer waits for an earlier reader of the initial value', () => {
    const plan = compileOk(doc([r('†state.x'), w('†state.x')]), { state: { x: 1 } });
    expect(plan.calls[1]!.dependencies).toEqual([expect.objectContaining({ from: 0, kind: 'order' })]);
  });

  it('a writer waits for an earlier reader of an earlier write', () => {
    const plan = compileOk(doc([w('†state.x'), r('†state.x'), w('†state.x')]));
    expect(precedes(plan.order, 1, 2)).toBe(true);
    expect(depsOf(plan, 2)).toContain(1);
  });

  it('overlap by prefix both ways', () => {
    const deeperRead = compileOk(doc([w('†state.user'), r('†state.user.name'), w('†state.user')]));
    expect(precedes(deeperRead.order, 1, 2)).toBe(true);
    const deeperWrite = compileOk(doc([r('†state.user'), w('†state.user.name')]), { state: { user: {} } });
    expect(depsOf(deeperWrite, 1)).toEqual([0]);
  });

  it('readers of a path all finish before it is overwritten', () => {
    const plan = compileOk(
      doc([w('†state.x'), r('†state.x'), r('†state.x.y'), r('†state.x'), w('†state.x')]),
    );
    for (const reader of [1, 2, 3]) expect(precedes(plan.order, reader, 4)).toBe(true);
    // The readers themselves are independent.
    expect(plan.levels.slice(1, 4)).toEqual([1, 1, 1]);
  });

  it('a read-modify-write call reads the earlier value and replaces it, without a cycle', () => {
    const plan = compileOk(doc([w('†state.count'), r('†state.count', { _outputPath: '†state.count' })]));
    expect(plan.calls[1]!.reads[0]).toMatchObject({ kind: 'earlier', writers: [0] });
    expect(depsOf(plan, 1)).toEqual([0]);

    const fromInitial = compileOk(
      doc([
        r('†state.count', { _outputPath: '†state.count' }),
        r('†state.count', { _outputPath: '†state.count' }),
      ]),
      { state: { count: 0 } },
    );
    expect(fromInitial.calls[0]!.reads[0]!.kind).toBe('initial');
    expect(fromInitial.calls[1]!.reads[0]).toMatchObject({ kind: 'earlier', writers: [0] });
    expect(fromInitial.order).toEqual([0, 1]);
  });

  it('a forward-bound read does not make the writer wait for the reader', () => {
    const plan = compileOk(doc([r('†state.x'), w('†state.x')]));
    expect(plan.calls[1]!.dependencies).toEqual([]);
  });
});

describe('unresolved reads', () => {
  it('E_UNRESOLVED at the reference inside the string, with the nearest written path', () => {
    const text = doc([w('†state.user'), r('†state.usr', { _id: 'reader' })]);
    const d = only(compileErrors(text).diagnostics, 'E_UNRESOLVED');
    expect(d).toMatchObject({ pointer: '/1/v', call: 'reader', hint: 'did you mean †state.user?' });
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, '†state.usr', 0));
  });

  it.each([
    [[w('†state.user.name')], '†state.user.nme', 'did you mean †state.user.name?'],
    [[w('†state.user')], '†state.usr.name', 'did you mean †state.user.name?'],
    [[w('†state.results[0]')], '†state.result[0]', 'did you mean †state.results[0]?'],
    [[w('†state.weather')], '†state.wether.temp', 'did you mean †state.weather.temp?'],
  ])('with %j written, %s hints "%s"', (writers, ref, hint) => {
    const d = only(compileErrors(doc([...writers, r(ref)])).diagnostics, 'E_UNRESOLVED');
    expect(d.hint).toBe(hint);
  });

  it('hints from the initial state and from the input', () => {
    const fromState = only(
      compileErrors(doc([r('†state.cont')]), { state: { count: 1 } }).diagnostics,
      'E_UNRESOLVED',
    );
    expect(fromState.hint).toBe('did you mean †state.count?');
    const fromInput = only(
      compileErrors(doc([r('†input.qurey')]), { input: { query: 'x' } }).diagnostics,
      'E_UNRESOLVED',
    );
    expect(fromInput.hint).toBe('did you mean †input.query?');
    expect(fromInput.message).toMatch(/input/);
  });

  it('without anything near, the hint says how to set it', () => {
    const d = only(compileErrors(doc([w('†state.alpha'), r('†state.zzzzzz')])).diagnostics, 'E_UNRESOLVED');
    expect(d.hint).not.toMatch(/did you mean/);
    expect(d.hint).toMatch(/_outputPath|initial state/);
  });

  it('each unresolved side of an && expression is reported at its own reference', () => {
    const expr = '†state.a && †state.nope';
    const text = doc([w('†state.a'), r(expr)]);
    const d = only(compileErrors(text).diagnostics, 'E_UNRESOLVED');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, expr, 12));
    expect(d.message).toContain('†state.nope');
  });

  it('input reads are only checked when some input is given', () => {
    expect(compile(doc([r('†input.anything')])).ok).toBe(true);
    expect(compile(doc([r('†input.anything')]), { input: {} }).ok).toBe(false);
    const msg = doc([
      { type: 'input', q: 1 },
      { type: 'plan', plan: [r('†input.anything')] },
    ]);
    expect(only(compile(msg).diagnostics, 'E_UNRESOLVED').pointer).toBe('/1/plan/0/v');
    expect(compile(msg, { input: { anything: true } }).ok).toBe(true);
  });
});

describe('|| alternatives that can never be set', () => {
  const nickOrName = '†input.nickname || †input.name';

  it('beside one that can: a warning (not E_UNRESOLVED) at its own reference; the plan compiles', () => {
    const text = doc([r(nickOrName, { _id: 'greet' })]);
    const result = compile(text, { input: { name: 'Ada' } });
    expect(result.ok).toBe(true);
    const d = only(result.diagnostics, 'W_UNRESOLVED_ALTERNATIVE');
    expect(d).toMatchObject({ severity: 'warning', pointer: '/0/v', call: 'greet' });
    expect({ line: d.line, column: d.column }).toEqual(positionInString(text, nickOrName, 0));
    expect(d.message).toContain('†input.nickname is never set');
    expect(result.diagnostics.map((x) => x.code)).toEqual(['W_UNRESOLVED_ALTERNATIVE']);
  });

  it('the read binds to the alternatives that can be set: the one never set is `unset`', () => {
    const plan = compile(doc([r(nickOrName)]), { input: { name: 'Ada' } }).plan!;
    expect(plan.calls[0]!.reads.map((read) => [read.ref.text, read.kind])).toEqual([
      ['†input.nickname', 'unset'],
      ['†input.name', 'input'],
    ]);
  });

  it('with the same "did you mean" E_UNRESOLVED gives', () => {
    const text = doc([w('†state.user'), r('†state.usr || †state.fallback')]);
    const d = only(compile(text, { state: { fallback: 'x' } }).diagnostics, 'W_UNRESOLVED_ALTERNATIVE');
    expect(d.hint).toBe('did you mean †state.user?');
    const far = only(
      compile(doc([r('†input.zzzzzz || †input.name')]), { input: { name: 'x' } }).diagnostics,
      'W_UNRESOLVED_ALTERNATIVE',
    );
    expect(far.hint).toMatch(/remove it from the expression, or add it to the input/);
  });

  it('state alternatives too: written earlier, written later (a forward reference), in the initial state, or declared by the state schema', () => {
    for (const [calls, options] of [
      [[w('†state.name'), r('†state.nick || †state.name')], {}],
      [[r('†state.nick || †state.name'), w('†state.name')], {}],
      [[r('†state.nick || †state.name')], { state: { name: 'Ada' } }],
      [
        [r('†state.nick || †state.name')],
        { stateSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      ],
    ] as const) {
      const result = compile(doc(calls), options);
      expect(result.ok, JSON.stringify(calls)).toBe(true);
      expect(result.diagnostics.map((d) => d.code)).toEqual(['W_UNRESOLVED_ALTERNATIVE']);
      expect(result.diagnostics[0]!.message).toContain('†state.nick');
    }
    // A forward alternative orders the reader after its writer, as any forward read.
    const forward = compileOk(doc([r('†state.nick || †state.name'), w('†state.name')]));
    expect(precedes(forward.order, 1, 0)).toBe(true);
  });

  it('when no alternative can ever be set, each is E_UNRESOLVED, as before', () => {
    const result = compile(doc([r('†input.nickname || †state.name')]), { input: { name: 'Ada' } });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.message.split(' ')[0]])).toEqual([
      ['E_UNRESOLVED', '†input.nickname'],
      ['E_UNRESOLVED', '†state.name'],
    ]);
  });

  it('&& is unchanged: a side that can never be set is E_UNRESOLVED', () => {
    const result = compile(doc([r('†input.nickname && †input.name')]), { input: { name: 'Ada' } });
    expect(only(result.diagnostics, 'E_UNRESOLVED').message).toContain('†input.nickname');
  });

  it('input alternatives are only judged when some input is given', () => {
    expect(compile(doc([r(nickOrName)])).diagnostics).toEqual([]);
  });
});
