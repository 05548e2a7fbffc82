/** Comments and trailing commas: blanked to spaces of the same length, strings left alone, in linear time. */
import { describe, expect, it } from 'vitest';
import { blankJsonExtensions } from '../../src/language/text/json-extensions.js';
import { compile, parsePlan } from '../../src/index.js';
import { codes, only, positionOf, positionOfText } from '../compile/helpers.js';

function blanked(text: string) {
  const result = blankJsonExtensions(text);
  if ('unterminatedComment' in result)
    throw new Error(`unterminated comment at ${result.unterminatedComment}`);
  return result;
}

describe('blankJsonExtensions', () => {
  it('blanks // and /* */ comments and trailing commas to spaces, keeping length and line breaks', () => {
    const text = '[ // one\n  1, /* two\n three */ 2,\r\n]';
    const out = blanked(text);
    expect(out.text).toBe('[       \n  1,       \n          2 \r\n]');
    expect(out.text).toHaveLength(text.length);
    expect(JSON.parse(out.text)).toEqual([1, 2]);
    expect(out.extensions).toEqual([
      { kind: 'line-comment', offset: 2 },
      { kind: 'block-comment', offset: 14 },
      { kind: 'trailing-comma', offset: text.indexOf('2,') + 1 },
    ]);
    expect(out.count).toBe(3);
  });

  it('leaves // and /* inside strings alone, escaped quotes included', () => {
    const text = '{"url": "http://x/*y*/", "q": "a \\" // b", "n": 1,}';
    const out = blanked(text);
    expect(JSON.parse(out.text)).toEqual({ url: 'http://x/*y*/', q: 'a " // b', n: 1 });
    expect(out.extensions).toEqual([{ kind: 'trailing-comma', offset: text.length - 2 }]);
  });

  it('a comma between a comment and the close is still trailing; one that follows no value is not', () => {
    expect(JSON.parse(blanked('[1, // last\n]').text)).toEqual([1]);
    expect(JSON.parse(blanked('{"a": {"b": 1,},}').text)).toEqual({ a: { b: 1 } });
    for (const text of ['[,]', '[1,,]', '{"a":,}', '{,}']) {
      const out = blanked(text);
      expect(out.count, text).toBe(0);
      expect(out.text).toBe(text);
    }
  });

  it('returns the text itself when there is nothing to blank', () => {
    const text = '[1, 2, "/"]';
    expect(blanked(text)).toEqual({ text, extensions: [], count: 0 });
  });

  it('says where a /* comment never ends', () => {
    expect(blankJsonExtensions('[1] /* open')).toEqual({ unterminatedComment: 4 });
    expect(blankJsonExtensions('[1] /*/')).toEqual({ unterminatedComment: 4 });
  });

  it('keeps the first `keep` places and counts them all', () => {
    const out = blanked(`[${'[1,],'.repeat(10)}[]]`);
    expect(blankJsonExtensions(`[${'[1,],'.repeat(10)}[]]`, 3)).toMatchObject({ count: 10 });
    expect((blankJsonExtensions(`[${'[1,],'.repeat(10)}[]]`, 3) as typeof out).extensions).toHaveLength(3);
    expect(out.extensions).toHaveLength(10);
  });
});

describe('parsePlan with comments and trailing commas', () => {
  const text = [
    '{',
    '  "calls": [',
    '    {',
    '      "_tool": "detectLanguage",',
    '      "note": "see http://example.com/a /* b */ // c",',
    '      // The model knows this path from the schema.',
    '      "_outputPath": "†state.language",',
    '    },',
    '    /* a block',
    '       comment */',
    '    { "_tool": "isEnglish", "_outputpath": "†state.x" },',
    '  ],',
    '  "output": null',
    '}',
  ].join('\n');

  it('compiles, with a W_JSON_EXTENSION at each comment and trailing comma', () => {
    const result = compile(text);
    const warnings = result.diagnostics.filter((d) => d.code === 'W_JSON_EXTENSION');
    const kind = (what: string) => `${what}, which JSON does not allow: read as space`;
    expect(warnings.map((d) => ({ line: d.line, column: d.column, message: d.message }))).toEqual([
      { ...positionOfText(text, '// The model'), message: kind('a // comment') },
      { ...positionOfText(text, '"†state.language",', 17), message: kind('a trailing comma') },
      { ...positionOfText(text, '/* a block'), message: kind('a /* */ comment') },
      { ...positionOfText(text, '"†state.x" },', 12), message: kind('a trailing comma') },
    ]);
    for (const w of warnings) {
      expect(w.severity).toBe('warning');
      expect(w.hint).toMatch(/strict JSON readers refuse them/);
    }
    // The string's "//" is text, not a comment.
    expect(result.document!.calls[0]).toMatchObject({ note: 'see http://example.com/a /* b */ // c' });
  });

  it('places the other diagnostics exactly where they are in the text as written', () => {
    const result = compile(text);
    const meta = only(result.diagnostics, 'E_UNKNOWN_META');
    expect({ line: meta.line, column: meta.column }).toEqual(positionOfText(text, '"_outputpath"'));
    expect(result.ok).toBe(false);
    // A reference error inside a string, after a comment on an earlier line: the exact character.
    const broken = text.replace('†state.language', '†state.lang uage');
    const ref = only(compile(broken).diagnostics, 'E_REF_SYNTAX');
    expect({ line: ref.line, column: ref.column }).toEqual(positionOfText(broken, ' uage', 1));
  });

  it('a text that is still not JSON is E_JSON at its real mistake, not at the first comment', () => {
    const bad = '// two calls\n[{"_tool": "a"} {"_tool": "b"}]';
    const { document, diagnostics } = parsePlan(bad);
    expect(document).toBeNull();
    expect(codes(diagnostics)).toEqual(['E_JSON']);
    expect(diagnostics[0]).toMatchObject(positionOfText(bad, '{"_tool": "b"}'));
  });

  it('a comment that never ends is E_JSON at its start', () => {
    const bad = '[{"_tool": "a"}]\n  /* forgot to close';
    const d = only(parsePlan(bad).diagnostics, 'E_JSON');
    expect({ line: d.line, column: d.column }).toEqual({ line: 2, column: 3 });
    expect(d.message).toMatch(/never ends/);
  });

  it('lists as many as limits.maxDiagnostics, then counts the rest in one more warning', () => {
    const many = `[${'{"_tool": "a",},'.repeat(5)}]`;
    const { document, diagnostics } = parsePlan(many, { limits: { maxDiagnostics: 2 } });
    expect(document).not.toBeNull();
    expect(diagnostics.map((d) => [d.code, d.column, d.message])).toEqual([
      ['W_JSON_EXTENSION', 15, 'a trailing comma, which JSON does not allow: read as space'],
      ['W_JSON_EXTENSION', 31, 'a trailing comma, which JSON does not allow: read as space'],
      ['W_JSON_EXTENSION', 31, 'and 4 more comments or trailing commas, read as space and not listed'],
    ]);
  });

  it('a text of valid JSON gets no warning and the same positions as before', () => {
    const plain = '[\n  {"_tool": "a", "_oops": 1}\n]';
    const d = only(compile(plain).diagnostics, 'E_UNKNOWN_META');
    expect(d).toMatchObject(positionOfText(plain, '"_oops"'));
  });
});

describe('hostile texts stay linear', () => {
  // A hang here is caught by the test's own timeout; nothing is timed.
  it('100,000 trailing commas', () => {
    const text = `[${'[1,],'.repeat(100_000)}[]]`;
    const result = compile(text);
    expect(result.ok).toBe(false); // the calls are arrays, not objects: E_SHAPE, but read
    expect(result.diagnostics.some((d) => d.code === 'W_JSON_EXTENSION')).toBe(true);
    expect(result.diagnostics.some((d) => d.code === 'E_JSON')).toBe(false);
  });

  it('a comment that never ends, a megabyte long', () => {
    const text = `[{"_tool": "a"}] /*${'x'.repeat(1_000_000)}`;
    expect(codes(parsePlan(text).diagnostics)).toEqual(['E_JSON']);
  });

  it('a million // lines, and 100,000 lone /* in a string', () => {
    const lines = `[${'// c\n'.repeat(1_000_000)}{"_tool": "a"}]`;
    expect(compile(lines, { limits: { maxDiagnostics: 10 } }).ok).toBe(true);
    const inString = `[{"_tool": "a", "s": "${'/*'.repeat(100_000)}"}] // end`;
    const result = compile(inString);
    expect(result.ok).toBe(true);
    expect(only(result.diagnostics, 'W_JSON_EXTENSION')).toMatchObject(
      positionOf(inString, inString.length - 6),
    );
  });
});
