/** SPEC 3: the reference grammar, error codes and the exact offset of every syntax error. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { parseExpression, parseString } from '../../src/language/index.js';
import { WILDCARD } from '../../src/language/paths.js';
import { doc, only, positionInString, positionOfText } from '../compile/helpers.js';

function expression(text: string) {
  const parsed = parseString(text);
  if (parsed.kind !== 'expression') throw new Error(`${text} did not parse: ${JSON.stringify(parsed)}`);
  return parsed.expression;
}

function segments(text: string) {
  const e = expression(text);
  expect(e.op).toBeNull();
  expect(e.refs).toHaveLength(1);
  return e.refs[0]!.segments;
}

describe('roots', () => {
  it('†state alone is the whole state, †input the whole input', () => {
    const state = expression('†state');
    expect(state.refs).toEqual([{ root: 'state', segments: [], text: '†state', start: 0 }]);
    expect(expression('†input').refs[0]!.root).toBe('input');
  });

  it.each([
    ['†foo.x', 'did you mean †state?'],
    ['†State.x', 'did you mean †state?'],
    ['†inputs.x', 'did you mean †input?'],
    ['†in', 'did you mean †input?'],
    ['†args', 'did you mean †state?'],
  ])('%s is E_REF_ROOT at the root (offset 1)', (text, hint) => {
    const parsed = parseString(text);
    expect(parsed).toMatchObject({ kind: 'error', code: 'E_REF_ROOT', offset: 1, hint });
  });

  it('an unknown root in the second reference points at that root', () => {
    expect(parseString('†state.a || †stat.b')).toMatchObject({
      kind: 'error',
      code: 'E_REF_ROOT',
      offset: 13,
    });
  });
});

describe('segments', () => {
  it('dotted names allow letters, digits, _, $ and - after the first character', () => {
    expect(segments('†state.a.b')).toEqual(['a', 'b']);
    expect(segments('†state._private.$x.user_name-2')).toEqual(['_private', '$x', 'user_name-2']);
    expect(segments('†input.Q')).toEqual(['Q']);
  });

  it('numeric segments are numbers, dotted or bracketed', () => {
    expect(segments('†state.items.0.name')).toEqual(['items', 0, 'name']);
    expect(segments('†state.items[12]')).toEqual(['items', 12]);
    expect(segments('†state[3][4]')).toEqual([3, 4]);
    const [, index] = segments('†state.items[7]');
    expect(typeof index).toBe('number');
  });

  it('bracketed JSON strings hold any key, with JSON escapes', () => {
    expect(segments('†state["a.b"]')).toEqual(['a.b']);
    expect(segments('†state["a b"].c')).toEqual(['a b', 'c']);
    expect(segments('†state["a\\"b"]')).toEqual(['a"b']);
    expect(segments('†state["back\\\\slash"]')).toEqual(['back\\slash']);
    expect(segments('†state["\\u0041\\n"]')).toEqual(['A\n']);
    expect(segments('†state["]"]')).toEqual([']']);
    expect(segments('†state["[*]"]')).toEqual(['[*]']);
    expect(segments('†state["||"]')).toEqual(['||']);
    expect(segments('†state["0"]')).toEqual(['0']);
    expect(segments('†state[""]')).toEqual(['']);
  });

  it('[*] is a wildcard segment, also nested', () => {
    expect(segments('†state.items[*].id')).toEqual(['items', WILDCARD, 'id']);
    expect(segments('†state.a[*].b[*][0]')).toEqual(['a', WILDCARD, 'b', WILDCARD, 0]);
  });

  it('keeps the text and start of every reference', () => {
    const e = expression('†state.a || †input["x y"][0]');
    expect(e.refs.map((r) => [r.text, r.start])).toEqual([
      ['†state.a', 0],
      ['†input["x y"][0]', 12],
    ]);
  });
});

describe('operators', () => {
  it.each([
    ['†state.a || †state.b', [0, 12]],
    ['†state.a||†state.b', [0, 10]],
    ['†state.a  ||\t†state.b', [0, 13]],
  ])('%s is an || expression', (text, starts) => {
    const e = expression(text);
    expect(e.op).toBe('||');
    expect(e.refs.map((r) => r.start)).toEqual(starts);
    expect(e.refs.map((r) => r.segments)).toEqual([['a'], ['b']]);
  });

  it('&& with and without spaces, with three references and both roots', () => {
    const e = expression('†state.a&&†input.b && †state.c');
    expect(e.op).toBe('&&');
    expect(e.refs.map((r) => [r.root, r.segments[0], r.start])).toEqual([
      ['state', 'a', 0],
      ['input', 'b', 10],
      ['state', 'c', 22],
    ]);
  });

  it.each([
    ['†state.a&&†state.b||†state.c', 18],
    ['†state.a || †state.b && †state.c', 21],
    ['†state.a||†state.b||†state.c&&†state.d', 28],
  ])('%s mixes operators: E_MIXED_OPS at the second kind (offset %i)', (text, offset) => {
    expect(parseString(text)).toMatchObject({ kind: 'error', code: 'E_MIXED_OPS', offset });
  });
});

describe('literals and text', () => {
  it('†† drops one leading † and resolves nothing', () => {
    expect(parseString('††state.x')).toEqual({ kind: 'literal', value: '†state.x' });
    expect(parseString('†††')).toEqual({ kind: 'literal', value: '††' });
    expect(parseString('††')).toEqual({ kind: 'literal', value: '†' });
    expect(parseString('††not even [a reference')).toEqual({
      kind: 'literal',
      value: '†not even [a reference',
    });
  });

  it('a string not starting with † is text; a † that looks like a reference is flagged with its offset', () => {
    expect(parseString('plain')).toEqual({ kind: 'text', value: 'plain' });
    expect(parseString('see †state.x')).toEqual({ kind: 'text', value: 'see †state.x', suspiciousDagger: 4 });
    expect(parseString(' †state.x')).toMatchObject({ kind: 'text', suspiciousDagger: 1 });
    expect(parseString('5 † 3')).toEqual({ kind: 'text', value: '5 † 3' });
    expect(parseString('')).toEqual({ kind: 'text', value: '' });
  });
});

/** Every syntax error with the exact offset (in the decoded string) where it is. */
const SYNTAX_ERRORS: [string, number][] = [
  ['†', 1],
  ['†.x', 1],
  ['†1', 1],
  ['† state', 1],
  ['†state.', 7],
  // '†state..a' and '†state[-1]' are selections now (selection.test.ts)
  ['†state.[a]', 7],
  ['†state.a.', 9],
  ['†state.-a', 7],
  ['†state.0a', 7],
  ['†state.a.12b', 9],
  ['†state[', 7],
  ['†state[a]', 7],
  ['†state[+1]', 7],
  ['†state[ 1]', 7],
  ['†state[]', 7],
  ['†state[1', 8],
  ['†state[1x]', 8],
  ['†state[*', 8],
  ['†state["x', 7],
  ['†state["x"', 10],
  ['†state["x"y]', 10],
  ['†state["\\q"]', 7],
  ["†state['x']", 7],
  ['†state.a b', 9],
  ['†state.a |', 9],
  ['†state.a & †state.b', 9],
  ['†state.a ||', 11],
  ['†state.a || x', 12],
  ['†state.a || †', 13],
  ['†state.a |||†state.b', 11],
  ['†state.a || ††state.b', 13],
  ['†state.a†state.b', 8],
  ['†state.a)', 8],
  // SPEC 3 allows spaces only around operators: trailing spaces are a mistake, not padding.
  ['†state.x ', 8],
  ['†state.a || †state.b  ', 20],
  // A leading zero is neither clearly an index nor clearly a key.
  ['†state.m.01', 9],
  ['†state.m[01]', 9],
  ['†state.m[00].x', 9],
];

describe('syntax errors', () => {
  it.each(SYNTAX_ERRORS)('%s is E_REF_SYNTAX at offset %i', (text, offset) => {
    const parsed = parseString(text);
    expect(parsed).toMatchObject({ kind: 'error', code: 'E_REF_SYNTAX', offset });
    expect((parsed as { message: string }).message.length).toBeGreaterThan(0);
  });

  it.each(SYNTAX_ERRORS)('%s in a plan: the column is that character inside the string', (text, offset) => {
    const source = doc([
      { _tool: 't', _outputPath: '†state.out' },
      { _tool: 't', _id: 'second', arg: { nested: [text] } },
    ]);
    const d = only(compile(source).diagnostics, 'E_REF_SYNTAX');
    expect(d.pointer).toBe('/1/arg/nested/0');
    expect(d.call).toBe('second');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(source, text, offset));
  });
});

describe('forbidden segments', () => {
  it.each([
    ['†state.__proto__', 7],
    ['†state.prototype', 7],
    ['†state.constructor', 7],
    ['†state.a.constructor.b', 9],
    ['†input.__proto__.x', 7],
    ['†state["__proto__"]', 7],
    ['†state.a["prototype"]', 9],
    ['†state["constructor"]', 7],
    ['†state["\\u005f_proto__"]', 7],
    ['†state.a || †state.__proto__', 19],
    ['†state.items[*].constructor', 16],
  ])('%s is E_REF_FORBIDDEN at offset %i', (text, offset) => {
    expect(parseString(text)).toMatchObject({ kind: 'error', code: 'E_REF_FORBIDDEN', offset });
  });

  it('names that only contain a forbidden word are fine', () => {
    expect(segments('†state.constructors.__proto')).toEqual(['constructors', '__proto']);
    expect(segments('†state["my prototype"]')).toEqual(['my prototype']);
  });

  it('is reported in _outputPath too, at the segment', () => {
    const source = doc([{ _tool: 't', _outputPath: '†state.a.__proto__' }]);
    const d = only(compile(source).diagnostics, 'E_REF_FORBIDDEN');
    expect(d.pointer).toBe('/0/_outputPath');
    expect({ line: d.line, column: d.column }).toEqual(positionInString(source, '†state.a.__proto__', 9));
  });
});

describe('parseExpression (output paths)', () => {
  it('parses a reference expression', () => {
    const e = parseExpression('†state.ok || †state.error');
    expect('kind' in e).toBe(false);
    expect((e as { op: string }).op).toBe('||');
  });

  it('rejects text at offset 0 and a literal at offset 1', () => {
    expect(parseExpression('state.x')).toMatchObject({ kind: 'error', code: 'E_REF_SYNTAX', offset: 0 });
    expect(parseExpression('††state.x')).toMatchObject({ kind: 'error', code: 'E_REF_SYNTAX', offset: 1 });
  });

  it('reports the same codes as parseString', () => {
    expect(parseExpression('†state.a && †state.b || †state.c')).toMatchObject({
      code: 'E_MIXED_OPS',
      offset: 21,
    });
    expect(parseExpression('†stat.a')).toMatchObject({ code: 'E_REF_ROOT', offset: 1 });
  });
});

describe('the column of an error inside a string accounts for escapes', () => {
  it('a \\u2020 escape for the dagger is six characters in the text but one in the value', () => {
    const source = '[{"_tool": "t", "v": "\\u2020state.x["}]';
    const d = only(compile(source).diagnostics, 'E_REF_SYNTAX');
    // The error is at the end of the decoded string (offset 9), which is the closing quote.
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(source, '"}]'));
  });

  it('escaped quotes and backslashes before the error count as two characters each', () => {
    const source = '[\n  {"_tool": "t", "v": "\\u2020state[\\"a\\\\\\"b\\"] x"}\n]';
    // decoded: †state["a\"b"] x  -> the error is the x (spaces after a reference are skipped)
    const d = only(compile(source).diagnostics, 'E_REF_SYNTAX');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(source, 'x"}'));
  });

  it('characters outside the BMP count as two columns (UTF-16), like editors do', () => {
    const source = '[{"_tool": "t", "v": "†state[\\"😀\\"]x"}]';
    const d = only(compile(source).diagnostics, 'E_REF_SYNTAX');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(source, 'x"}'));
  });
});
