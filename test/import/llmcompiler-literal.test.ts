/**
 * The Python-literal reader behind LLMCompiler's step arguments: what `ast.literal_eval` reads
 * from a call's argument list, as JSON values, and where it stops on anything else.
 */
import { describe, expect, it } from 'vitest';
import { readCallArguments } from '../../src/import/llmcompiler/python-literal.js';

function read(argumentsText: string): unknown {
  const text = `f(${argumentsText}`;
  const result = readCallArguments(text, 2, { maxDepth: 8, onString: (s) => s });
  return result.ok ? { args: result.args, rest: text.slice(result.end) } : result;
}

describe('readCallArguments', () => {
  it.each([
    [')', []],
    [`'a', "b")`, ['a', 'b']],
    ['1, -2, +3, 2.5, -0.5e3, 1_000, .5, 5.)', [1, -2, 3, 2.5, -500, 1000, 0.5, 5]],
    ['True, False, None)', [true, false, null]],
    ['[1, [2, []], ], (1, 2), (1,), (1), ())', [[1, [2, []]], [1, 2], [1], 1, []]],
    [`{'a': 1, "b": [None], }, {})`, [{ a: 1, b: [null] }, {}]],
    [`"x",)`, ['x']],
  ])('reads f(%s', (written, args) => {
    expect(read(written)).toEqual({ args, rest: '' });
  });

  it("reads Python's string escapes", () => {
    const written = String.raw`"a\nb\tc\\d\'e\"f\x41\u00e9\U0001F600\101\d")`;
    expect(read(written)).toEqual({ args: ['a\nb\tc\\d\'e"fA\u00e9\u{1F600}A\\d'], rest: '' });
    expect(read(`'it"s', "it's")`)).toEqual({ args: ['it"s', "it's"], rest: '' });
  });

  it('stops just past the closing parenthesis, leaving what follows', () => {
    expect(read(`"a") # comment`)).toEqual({ args: ['a'], rest: ' # comment' });
    expect(read(`"a)b")<END_OF_PLAN>`)).toEqual({ args: ['a)b'], rest: '<END_OF_PLAN>' });
  });

  it('keeps a key "__proto__" as data', () => {
    const result = read(`{"__proto__": 1})`) as { args: Record<string, unknown>[] };
    expect(Object.keys(result.args[0]!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result.args[0]!)).toBe(Object.prototype);
  });

  it.each([
    [`"abc`, 2, /the string is not closed/],
    [`"abc"`, 7, /the call is not closed/],
    [`query="x")`, 2, /a keyword argument \(query=\.\.\.\)/],
    [`Rosetta)`, 2, /"Rosetta" is not a Python literal/],
    [`$1)`, 2, /a reference outside quotes/],
    [`0x1F)`, 2, /not a decimal number/],
    [`1e999)`, 2, /too large for JSON/],
    [`{1, 2})`, 3, /a dict key must be a string/],
    [`{"a" 1})`, 7, /':' expected/],
    [`{"a": })`, 8, /the dict key has no value/],
    [`[1, 2)`, 7, /unexpected '\)': '\]' expected/],
    [`1 2)`, 4, /',' or '\)' expected/],
    [`, 1)`, 2, /unexpected ','/],
    [`"""x""")`, 2, /triple-quoted/],
    [`b"x")`, 2, /string prefix/],
    [String.raw`"\x4")`, 3, /\\x needs 2 hexadecimal digits/],
    [String.raw`"\N{DASH}")`, 3, /\\N\{name\}/],
    [`1 + 2)`, 4, /',' or '\)' expected/],
  ])('refuses f(%s at offset %i', (written, offset, message) => {
    expect(read(written)).toEqual(
      expect.objectContaining({ ok: false, offset, message: expect.stringMatching(message) }),
    );
  });

  it('bounds the nesting: one bracket past maxDepth is an error, not deeper work', () => {
    expect(read(`${'['.repeat(8)}${']'.repeat(8)})`)).toEqual({ args: [[[[[[[[[]]]]]]]]], rest: '' });
    expect(read(`${'['.repeat(9)}${']'.repeat(9)})`)).toEqual(
      expect.objectContaining({
        ok: false,
        offset: 10,
        message: 'the arguments nest deeper than 8 brackets',
      }),
    );
  });

  it('gives every string to onString, keys too, and uses its value for values only', () => {
    const seen: [string, string][] = [];
    const text = `f("$1", {"$2": ["$3"]})`;
    const result = readCallArguments(text, 2, {
      maxDepth: 8,
      onString: (s, place) => {
        seen.push([s, place]);
        return `<${s}>`;
      },
    });
    expect(result).toEqual({ ok: true, args: ['<$1>', { $2: ['<$3>'] }], end: text.length });
    expect(seen).toEqual([
      ['$1', 'value'],
      ['$2', 'key'],
      ['$3', 'value'],
    ]);
  });
});
