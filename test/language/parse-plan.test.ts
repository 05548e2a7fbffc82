/** SPEC 1 and 11: the four document shapes, E_SHAPE, E_JSON at the syntax error, positions. */
import { describe, expect, it } from 'vitest';
import { compile, parsePlan } from '../../src/index.js';
import {
  doc,
  expectWellFormed,
  only,
  positionInString,
  positionOf,
  positionOfText,
} from '../compile/helpers.js';

function parsed(input: unknown) {
  const result = parsePlan(input);
  expectWellFormed(result.diagnostics, typeof input === 'string' ? input : undefined);
  return result;
}

describe('the four shapes', () => {
  it('a bare call array is eager', () => {
    const { document, diagnostics } = parsed('[{"_tool": "a"}, {"_tool": "b"}]');
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({ shape: 'calls', mode: 'eager', callsPointer: '' });
    expect(document!.calls).toEqual([{ _tool: 'a' }, { _tool: 'b' }]);
  });

  it('an empty array is an empty plan', () => {
    const { document, diagnostics } = parsed('[]');
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({ shape: 'calls', calls: [] });
  });

  it('a plan message takes its mode, eager by default', () => {
    const lazy = parsed('{"type": "plan", "mode": "lazy", "plan": [{"_tool": "a"}]}');
    expect(lazy.diagnostics).toEqual([]);
    expect(lazy.document).toMatchObject({
      shape: 'plan',
      mode: 'lazy',
      callsPointer: '/plan',
      calls: [{ _tool: 'a' }],
    });
    expect(parsed('{"type": "plan", "mode": "eager", "plan": []}').document).toMatchObject({ mode: 'eager' });
    expect(parsed('{"type": "plan", "plan": []}').document).toMatchObject({ shape: 'plan', mode: 'eager' });
  });

  it('a solution is eager and keeps its output', () => {
    const { document, diagnostics } = parsed('{"calls": [{"_tool": "a"}], "output": {"answer": 42}}');
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({
      shape: 'solution',
      mode: 'eager',
      callsPointer: '/calls',
      output: { answer: 42 },
    });
    expect(document!.calls).toHaveLength(1);
  });

  it('a context array supplies input, state, a state schema and the plan with its mode', () => {
    const text = doc([
      { type: 'input', question: 'q?', n: 2 },
      { type: 'state', schema: { type: 'object', properties: { x: {} } }, x: 1 },
      { type: 'input', extra: true },
      { type: 'plan', mode: 'lazy', plan: [{ _tool: 'a' }] },
    ]);
    const { document, diagnostics } = parsed(text);
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({
      shape: 'context',
      mode: 'lazy',
      callsPointer: '/3/plan',
      input: { question: 'q?', n: 2, extra: true },
      state: { x: 1 },
      stateSchema: { type: 'object', properties: { x: {} } },
      stateSchemaPointer: '/1/schema',
    });
    expect(document!.input).not.toHaveProperty('type');
    expect(document!.state).not.toHaveProperty('schema');
    expect(document!.calls).toEqual([{ _tool: 'a' }]);
  });

  it('a context array with only a plan message has no input or state', () => {
    const { document } = parsed('[{"type": "plan", "plan": []}]');
    expect(document).toMatchObject({ shape: 'context', mode: 'eager' });
    expect(document!.input).toBeUndefined();
    expect(document!.stateSchema).toBeUndefined();
  });

  it('a call with an argument named "type" is still a call', () => {
    const { document, diagnostics } = parsed('[{"_tool": "a", "type": "plan"}]');
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({ shape: 'calls' });
  });

  it('all four compile to the same graph', () => {
    const calls = [
      { _tool: 'a', _outputPath: '†state.x' },
      { _tool: 'b', v: '†state.x' },
    ];
    const texts = [
      JSON.stringify(calls),
      JSON.stringify({ type: 'plan', plan: calls }),
      JSON.stringify({ calls, output: null }),
      JSON.stringify([
        { type: 'input', q: 1 },
        { type: 'plan', plan: calls },
      ]),
    ];
    const graphs = texts.map((t) => {
      const r = compile(t);
      expect(r.ok).toBe(true);
      return r.plan!.calls.map((c) => c.dependencies.map((d) => d.from));
    });
    for (const g of graphs) expect(g).toEqual([[], [0]]);
  });
});

describe('bad shapes: E_SHAPE with a pointer', () => {
  it.each([
    ['5', ''],
    ['null', ''],
    ['"plan"', ''],
    ['true', ''],
    ['{"a": 1}', ''],
    ['{"tool": "x"}', ''],
  ])('%s is no document', (text, pointer) => {
    const { document, diagnostics } = parsed(text);
    expect(document).toBeNull();
    const d = only(diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe(pointer);
    expect(d.hint).toMatch(/array of calls/);
    expect([d.line, d.column]).toEqual([1, 1]);
  });

  function shapeError(text: string, pointer: string, needle: string, document: 'null' | 'document') {
    const result = parsed(text);
    if (document === 'null') expect(result.document).toBeNull();
    else expect(result.document).not.toBeNull();
    const d = only(result.diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe(pointer);
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, needle));
    return d;
  }

  it('a solution whose calls are not an array points at them', () => {
    shapeError('{\n  "calls": {"_tool": "a"}\n}', '/calls', '{"_tool"', 'null');
  });

  it('a solution with an unknown key', () => {
    shapeError('{"calls": [], "output": null, "answer": 1}', '/answer', '1}', 'document');
  });

  it('a plan message without a plan array points at it, or at the message when it is missing', () => {
    shapeError('{"type": "plan", "plan": {"_tool": "a"}}', '/plan', '{"_tool"', 'null');
    const d = shapeError('{"type": "plan"}', '/plan', '{', 'null');
    expect(d.message).toMatch(/needs "plan"/);
  });

  it('a plan message with a bad mode points at the mode', () => {
    const d = shapeError('{"type": "plan", "mode": "fast", "plan": []}', '/mode', '"fast"', 'document');
    expect(d.message).toMatch(/eager|lazy/);
  });

  it('a plan message with an unknown key points at its value', () => {
    shapeError('{"type": "plan", "plan": [], "tools": []}', '/tools', '[]}', 'document');
  });

  it('a lone input or state message is not a plan', () => {
    shapeError('{"type": "input", "q": 1}', '/type', '"input"', 'null');
    shapeError('{"type": "state"}', '/type', '"state"', 'null');
  });

  it('an unknown message type in a context array points at its type', () => {
    const text = doc([
      { type: 'input', q: 1 },
      { type: 'tool_result', x: 1 },
      { type: 'plan', plan: [] },
    ]);
    const d = shapeError(text, '/1/type', '"tool_result"', 'document');
    expect(d.message).toContain('tool_result');
  });

  it('a context array without a plan message', () => {
    shapeError(
      doc([
        { type: 'input', q: 1 },
        { type: 'state', x: 1 },
      ]),
      '',
      '[',
      'null',
    );
  });

  it('a context array with two plan messages points at the second', () => {
    // "plan" occurs as a type value and as a key in each message: the third occurrence.
    const text = doc([
      { type: 'plan', plan: [] },
      { type: 'plan', plan: [] },
    ]);
    const d = only(parsePlan(text).diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe('/1/type');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"plan"', 0, 2));
  });

  it('a state schema that is not a schema', () => {
    shapeError(
      doc([
        { type: 'state', schema: 'object' },
        { type: 'plan', plan: [] },
      ]),
      '/0/schema',
      '"object"',
      'document',
    );
  });

  it('a call that is not an object is E_SHAPE at the call (from compile)', () => {
    const text = doc({ type: 'plan', plan: [{ _tool: 'a' }, 'call b', null] });
    const result = compile(text);
    const shapes = result.diagnostics.filter((d) => d.code === 'E_SHAPE');
    expect(shapes.map((d) => d.pointer)).toEqual(['/plan/1', '/plan/2']);
    expect({ line: shapes[0]!.line, column: shapes[0]!.column }).toEqual(positionOfText(text, '"call b"'));
    expect({ line: shapes[1]!.line, column: shapes[1]!.column }).toEqual(positionOfText(text, 'null'));
  });
});

describe('E_JSON at the syntax error', () => {
  function jsonError(text: string) {
    const { document, diagnostics } = parsed(text);
    expect(document).toBeNull();
    const d = only(diagnostics, 'E_JSON');
    expect(d.pointer).toBe('');
    expect(d.severity).toBe('error');
    return d;
  }

  it('a trailing comma is read (W_JSON_EXTENSION); a comma where no value came before is E_JSON at it', () => {
    const trailing = parsed('[\n  {"_tool": "a"},\n  {"_tool": "b"},\n]');
    expect(trailing.document!.calls).toHaveLength(2);
    expect(only(trailing.diagnostics, 'W_JSON_EXTENSION')).toMatchObject({ line: 3, column: 17 });
    const text = '[\n  {"_tool": "a"},\n  ,\n]';
    expect(jsonError(text)).toMatchObject({ line: 3, column: 3 });
    const inObject = '[{"_tool": "a", , "x": 1}]';
    expect(jsonError(inObject)).toMatchObject(positionOfText(inObject, ', "x"'));
  });

  it('a missing comma: at the value that should have been preceded by one', () => {
    const text = '[\n  {"_tool": "a"}\n  {"_tool": "b"}\n]';
    expect(jsonError(text)).toMatchObject({ line: 3, column: 3 });
    const between = '{"type": "plan" "plan": []}';
    expect(jsonError(between)).toMatchObject(positionOfText(between, '"plan":'));
  });

  it('an unterminated string at the end of the text: at the end', () => {
    const text = '[{"_tool": "a}]';
    expect(jsonError(text)).toMatchObject({ line: 1, column: text.length + 1 });
  });

  it('a string broken by a line break: at the line break, not at the end of the file', () => {
    const text = '[\n  {"_tool": "ab\n  "x": 1},\n  {"_tool": "c"}\n]';
    const d = jsonError(text);
    expect(d).toMatchObject(positionOf(text, text.indexOf('ab\n') + 2));
    expect(d.hint).toMatch(/line break/);
  });

  it('empty text and whitespace: at the end, with a hint that it is empty', () => {
    const empty = jsonError('');
    expect(empty).toMatchObject({ line: 1, column: 1 });
    expect(empty.hint).toMatch(/empty/);
    const blank = jsonError('  \n   ');
    expect(blank).toMatchObject({ line: 2, column: 4 });
    expect(blank.hint).toMatch(/empty/);
  });

  it('a text that ends early: at the end', () => {
    expect(jsonError('[\n')).toMatchObject({ line: 2, column: 1 });
    expect(jsonError('[\n  {"_tool": "a"')).toMatchObject({ line: 2, column: 16 });
    expect(jsonError('{"type": "plan", "plan": [')).toMatchObject({ line: 1, column: 27 });
  });

  it('garbage after the value: at the garbage', () => {
    expect(jsonError('[]\nx')).toMatchObject({ line: 2, column: 1 });
    const two = '{"type": "plan", "plan": []} {"type": "plan", "plan": []}';
    expect(jsonError(two)).toMatchObject({ line: 1, column: 30 });
  });

  it.each([
    ["[{'_tool': 'a'}]", 2, /double quotes/],
    ['[{"_tool": "a"} # a comment\n]', 16, undefined],
    ['[{_tool: "a"}]', 2, /double-quoted/],
    ['[NaN]', 1, undefined],
    ['[{"_tool": "a", "n": 1.}]', 23, undefined],
    ['["\\x"]', 3, undefined],
  ])('%s: at offset %i', (text, offset, hint) => {
    const d = jsonError(text);
    expect({ line: d.line, column: d.column }).toEqual(positionOf(text, offset));
    if (hint) expect(d.hint).toMatch(hint);
  });

  it('a raw control character in a string', () => {
    const text = '[{"_tool": "a\tb"}]';
    expect(jsonError(text)).toMatchObject(positionOfText(text, '\t'));
  });
});

describe('a byte order mark', () => {
  it('is accepted', () => {
    const { document, diagnostics } = parsePlan('\ufeff[{"_tool": "a"}]');
    expect(diagnostics).toEqual([]);
    expect(document).toMatchObject({ shape: 'calls' });
    expect(compile('\ufeff[{"_tool": "a"}]').ok).toBe(true);
  });

  it('does not break positions (columns count from after it, as editors show)', () => {
    const body = '[\n  {"_tool": "a", "v": "†state.["}\n]';
    const d = only(compile(`\ufeff${body}`).diagnostics, 'E_REF_SYNTAX');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(body, '†state.[', 7));
    const shape = '{"type": "plan", "mode": "fast", "plan": []}';
    const s = only(parsePlan(`\ufeff${shape}`).diagnostics, 'E_SHAPE');
    expect({ line: s.line, column: s.column }).toEqual(positionOfText(shape, '"fast"'));
  });

  it('does not break E_JSON positions', () => {
    const d = only(parsePlan('\ufeff[\n  1\n  2]').diagnostics, 'E_JSON');
    expect({ line: d.line, column: d.column }).toEqual({ line: 3, column: 3 });
    // Nor those of what was read as space.
    const w = only(parsePlan('\ufeff[\n  {"_tool": "a"},\n]').diagnostics, 'W_JSON_EXTENSION');
    expect({ line: w.line, column: w.column }).toEqual({ line: 2, column: 17 });
  });
});

describe('a document given as a value', () => {
  it('positions point into its pretty-printed JSON', () => {
    const value = [
      { _tool: 'a', _outputPath: '†state.x' },
      { _tool: 'b', deep: { list: ['ok', '†state.x[', 3] } },
    ];
    const pretty = doc(value);
    const d = only(compile(value).diagnostics, 'E_REF_SYNTAX');
    expect(d.pointer).toBe('/1/deep/list/1');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(pretty, '†state.x[', 9));
    expect(d.line).toBeGreaterThan(1);
  });

  it('shape errors of a value are placed too', () => {
    const value = { type: 'plan', mode: 'later', plan: [] };
    const d = only(parsePlan(value).diagnostics, 'E_SHAPE');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(doc(value), '"later"'));
    expect(parsePlan(value).document!.source.name).toBe('<value>');
  });

  it('takes the source name from the options', () => {
    expect(parsePlan('[]', { source: 'plans/a.json' }).document!.source.name).toBe('plans/a.json');
    expect(parsePlan('[]').document!.source.name).toBe('<input>');
  });
});

describe('limits', () => {
  it('a text longer than maxTextLength is E_LIMIT, before parsing', () => {
    const { document, diagnostics } = parsePlan('[{"_tool": "a"}]   ', { limits: { maxTextLength: 10 } });
    expect(document).toBeNull();
    expect(only(diagnostics, 'E_LIMIT').message).toMatch(/10/);
    // Not even JSON, but too long: only the limit is reported.
    expect(
      parsePlan('x'.repeat(11), { limits: { maxTextLength: 10 } }).diagnostics.map((d) => d.code),
    ).toEqual(['E_LIMIT']);
  });

  it('more calls than maxCalls is E_LIMIT at the calls array', () => {
    const text = doc({ type: 'plan', plan: [{ _tool: 'a' }, { _tool: 'b' }, { _tool: 'c' }] });
    const { document, diagnostics } = parsePlan(text, { limits: { maxCalls: 2 } });
    expect(document).toBeNull();
    const d = only(diagnostics, 'E_LIMIT');
    expect(d.pointer).toBe('/plan');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '['));
    expect(parsePlan(text, { limits: { maxCalls: 3 } }).diagnostics).toEqual([]);
  });

  it('a limit that is not a positive integer is a TypeError naming it', () => {
    expect(() => parsePlan('[]', { limits: { maxCalls: 0 } })).toThrow(TypeError);
    expect(() => parsePlan('[]', { limits: { maxDepth: 1.5 } })).toThrow(/maxDepth/);
  });
});
