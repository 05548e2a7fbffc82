/**
 * W_MISSING_DAGGER (a reference written without its †), E_SHAPE for context messages that wrap
 * their values, and the "did you mean" hint of unresolved †input reads.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Diagnostic, parsePlan } from '../../src/index.js';
import { MAX_BARE_REFERENCE_LENGTH, mayBeBareReference } from '../../src/compile/read/bare-references.js';
import { compileErrors, compileOk, doc, expectWellFormed, only, positionOfText } from './helpers.js';

function at(d: Diagnostic) {
  return { line: d.line, column: d.column };
}

function missing(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.code === 'W_MISSING_DAGGER');
}

const writeQuery = { _tool: 'ask', _outputPath: '†state.query' };

describe('W_MISSING_DAGGER', () => {
  it.each([
    ['$state.query', '†state.query'],
    ['@state.query', '†state.query'],
    ['state.query', '†state.query'],
    ['  state.query\n', '†state.query'],
    ['$state.query[0]', '†state.query[0]'],
    ['state["query"]', '†state["query"]'],
  ])('%j, where the path is written, is a warning whose hint is the corrected text', (text, fixed) => {
    const source = doc([writeQuery, { _tool: 'search', q: text }]);
    const plan = compileOk(source);
    const d = only(plan.diagnostics, 'W_MISSING_DAGGER');
    expectWellFormed(plan.diagnostics, source);
    expect(d.severity).toBe('warning');
    expect(d.pointer).toBe('/1/q');
    expect(d.call).toBe('1');
    expect(at(d)).toEqual(positionOfText(source, JSON.stringify(text)));
    expect(d.hint).toContain(`"${fixed}"`);
    expect(d.message).toContain('call 0 writes it');
    // Still text: the warning changes nothing in the graph.
    expect(plan.calls[1]!.refs).toEqual([]);
  });

  it('names the call by its _id, and finds strings nested in arrays and objects', () => {
    const source = doc([
      { ...writeQuery, _id: 'ask' },
      { _tool: 'search', options: { filters: ['x', '$state.query'] } },
    ]);
    const d = only(compileOk(source).diagnostics, 'W_MISSING_DAGGER');
    expect(d.pointer).toBe('/1/options/filters/1');
    expect(d.message).toContain('call ask writes it');
  });

  it('counts a write above, below or after the read, the initial state and the state schema', () => {
    const plan = [
      { _tool: 'search', a: 'state.user', b: 'state.later.x', c: 'state.start', d: 'state.declared' },
      { _tool: 'ask', _outputPath: '†state.user.name' },
      { _tool: 'ask', _outputPath: '†state.later' },
    ];
    const document = [
      { type: 'state', start: 1, schema: { type: 'object', properties: { declared: { type: 'string' } } } },
      { type: 'plan', plan },
    ];
    const found = missing(compileOk(doc(document)).diagnostics);
    expect(found.map((d) => d.pointer)).toEqual(['/1/plan/0/a', '/1/plan/0/b', '/1/plan/0/c', '/1/plan/0/d']);
    expect(found.map((d) => d.message.split('(')[1])).toEqual([
      'call 1 writes under it): is a † missing?',
      'call 2 writes it): is a † missing?',
      'the initial state holds it): is a † missing?',
      'the state schema declares it): is a † missing?',
    ]);
  });

  it('flags input.x and $input.x only when the input holds the path', () => {
    const plan = [
      { _tool: 'weather', a: 'input.city', b: '$input.city', c: '@input.country', d: 'input.txt' },
    ];
    const found = missing(compileOk(plan, { input: { city: 'Paris' } }).diagnostics);
    expect(found.map((d) => [d.pointer, d.hint?.split('?')[0]])).toEqual([
      ['/0/a', 'did you mean "†input.city"'],
      ['/0/b', 'did you mean "†input.city"'],
    ]);
    // Without input, nothing is known about it: no guesses.
    expect(missing(compileOk(plan).diagnostics)).toEqual([]);
  });

  it('leaves prose, unknown paths and other look-alikes alone', () => {
    const plan = [
      writeQuery,
      {
        _tool: 'notify',
        a: 'see state.query for details',
        b: 'state.query is ready',
        c: 'state.other',
        d: 'state',
        e: 'statement.query',
        f: 'state.query || state.other',
        g: '$state.query.',
        h: 'state.__proto__',
        i: 'Input.query',
        // The one that is flagged, so the test sees the check at work.
        z: 'state.query',
      },
    ];
    expect(missing(compileOk(plan).diagnostics).map((d) => d.pointer)).toEqual(['/1/z']);
  });

  it('is not reported for a string past the length it looks at', () => {
    const long = `state.query${' '.repeat(MAX_BARE_REFERENCE_LENGTH)}`;
    expect(mayBeBareReference(long)).toBe(false);
    expect(missing(compileOk([writeQuery, { _tool: 'notify', a: long }]).diagnostics)).toEqual([]);
  });

  it('mayBeBareReference reads only the start of a string', () => {
    expect(mayBeBareReference('state.x')).toBe(true);
    expect(mayBeBareReference(' \t$input[0]')).toBe(true);
    expect(mayBeBareReference('state')).toBe(false);
    expect(mayBeBareReference('a state.x')).toBe(false);
    expect(mayBeBareReference('$$state.x')).toBe(false);
  });

  it('sits beside the errors of an invalid plan without hiding them', () => {
    const result = compileErrors([writeQuery, { _tool: 'search', q: 'state.query', r: '†state.nope' }]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['E_UNRESOLVED', 'W_MISSING_DAGGER']);
  });
});

describe('context messages that wrap their values', () => {
  it('an input message with its values inside "input" is E_SHAPE, pointing at the right shape', () => {
    const source = doc([
      { type: 'input', input: { city: 'Paris' } },
      { type: 'plan', plan: [{ _tool: 'weather', city: '†input.city' }] },
    ]);
    const result = compileErrors(source);
    expectWellFormed(result.diagnostics, source);
    const d = only(result.diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe('/0/input');
    expect(at(d)).toEqual(positionOfText(source, '"input": {'));
    expect(d.message).toBe('an input message holds its values beside "type", not inside "input"');
    expect(d.hint).toContain('{"type": "input", "city": "Paris"}');
  });

  it('a state message with its values inside "state" is E_SHAPE; its schema may stay beside', () => {
    const result = compileErrors([
      { type: 'state', state: { count: 0 }, schema: { type: 'object' } },
      { type: 'plan', plan: [{ _tool: 'count' }] },
    ]);
    const d = only(result.diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe('/0/state');
    expect(d.hint).toContain('{"type": "state", "count": 0}');
  });

  it('a member named "input" among others, or holding no object, is a value like any', () => {
    const plan = compileOk([
      { type: 'input', input: { a: 1 }, city: 'Paris' },
      { type: 'state', state: 'idle' },
      { type: 'plan', plan: [{ _tool: 'weather', a: '†input.input.a', s: '†state.state' }] },
    ]);
    expect(plan.input).toEqual({ input: { a: 1 }, city: 'Paris' });
  });

  it('a plan message with "calls" instead of "plan" gets one E_SHAPE naming the fix', () => {
    const source = doc([
      { type: 'input', city: 'Paris' },
      { type: 'plan', calls: [{ _tool: 'weather' }] },
    ]);
    const { diagnostics } = parsePlan(source);
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([['E_SHAPE', '/1/calls']]);
    expect(diagnostics[0]!.hint).toContain('rename "calls" to "plan"');
  });
});

describe('unresolved †input reads', () => {
  it('get the nearest input path as a hint, like state reads', () => {
    const result = compileErrors(
      [
        { type: 'input', city: 'Paris', user: { name: 'Ada' } },
        {
          type: 'plan',
          plan: [{ _tool: 'weather', a: '†input.ctiy', b: '†input.usr.name', c: '†input.zzz' }],
        },
      ],
      {},
    );
    const hints = result.diagnostics.filter((d) => d.code === 'E_UNRESOLVED').map((d) => d.hint);
    expect(hints).toEqual([
      'did you mean †input.city?',
      'did you mean †input.user.name?',
      'add it to the input',
    ]);
  });

  it('use the input given as an option too', () => {
    const result = compile([{ _tool: 'weather', a: '†input.ctiy' }], { input: { city: 'Paris' } });
    expect(only(result.diagnostics, 'E_UNRESOLVED').hint).toBe('did you mean †input.city?');
  });
});
