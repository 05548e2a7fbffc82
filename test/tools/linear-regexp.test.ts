/**
 * The linear-time engine for schema patterns: it means what native RegExp (with `u`) means on
 * every pattern it takes, refuses what it cannot express with a reason that says where and
 * why, and never backtracks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translatePattern } from '../../src/tools/patterns/js-pattern.js';
import {
  compileLinearRegExp,
  isLinearPattern,
  linearRegExpEngine,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_SIZE,
  unsupportedReason,
  UnsupportedPatternError,
} from '../../src/tools/patterns/linear-regexp.js';

const TYPICAL = [
  '^[a-z0-9_-]{1,64}$',
  '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2}))?$',
  '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  '^[\\p{L}\\p{N} ._-]+$',
  '^\\p{Lu}\\p{Ll}+$',
  '^\\P{L}*$',
  '\\p{Script=Greek}',
  '\\p{General_Category=Decimal_Number}',
  'error|warning|fatal',
  '^https?://',
  '^\\s*$',
  '\\S+\\s\\S+',
  '^.$',
  '^.{2}$',
  '[^]',
  '[]',
  '^[\\s\\S]*$',
  '[\\b]',
  '\\bword\\b',
  '\\Bor\\B',
  '^\\u00e9$',
  '^\\u{1F600}$',
  '^\\uD83D\\uDE00$',
  '^😀+$',
  '^[😀-😂]$',
  '\\x41\\cJ\\0',
  '^(?<year>\\d{4})-(?:\\d\\d)$',
  '^[a-b-c]$',
  '^[-a]$',
  '^[a-]$',
  '^[\\w-]+$',
  '^[\\^\\]\\[]+$',
  '[[:alpha:\\]]',
  '\\/\\.\\*\\+\\?\\(\\)\\{\\}\\|\\$\\^\\\\',
  'a{2,}',
  'a{0}b',
  '^(ab|cd){1,3}$',
  'x*?y+?z??',
  '',
];

const STRINGS = [
  '',
  'a',
  'abc',
  'ABC',
  'user_name-42',
  'ada.lovelace@example.com',
  '2026-11-23T22:19:35.896Z',
  '2026-11-23',
  '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  'Zoë Ångström 42',
  'Élan',
  'αβγ',
  '٣٤',
  'one warning here',
  'https://example.com',
  ' \t\n',
  '\u00a0\u2028\u3000\ufeff',
  'two words',
  'x',
  '\n',
  '\r',
  '\u2028',
  'é',
  '😀',
  '😁',
  '😀😀',
  'A\n\u0000',
  '2026-11',
  'a word here',
  'words',
  'b-',
  '-',
  '^][',
  ':]',
  '/.*+?(){}|$^\\',
  'aab',
  'b',
  'abcd',
  'abab',
  'xyz',
  'xxyyz',
  '\ud800',
];

describe('linear patterns mean what native RegExp means', () => {
  it.each(TYPICAL)('%s', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinearRegExp(pattern);
    for (const text of STRINGS) expect([text, linear.test(text)]).toEqual([text, native.test(text)]);
  });

  it('agree on every code point for \\s, \\S, ., \\w, \\d, \\b and the common Unicode classes', () => {
    const classes = [
      '\\s',
      '\\S',
      '.',
      '[\\s]',
      '[^\\s]',
      '[\\S]',
      '\\w',
      '\\W',
      '\\d',
      '[\\d\\s]',
      '\\p{L}',
      '\\P{N}',
      '[^]',
    ];
    for (const body of classes) {
      const native = new RegExp(`^(?:${body})$`, 'u');
      const linear = compileLinearRegExp(`^(?:${body})$`);
      const differ: number[] = [];
      for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x3100 ? 1 : 97) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const text = String.fromCodePoint(cp);
        if (native.test(text) !== linear.test(text)) differ.push(cp);
      }
      expect([body, differ.slice(0, 5)]).toEqual([body, []]);
    }
    const native = /\bx/u;
    const linear = compileLinearRegExp('\\bx');
    for (let cp = 0; cp < 0x3100; cp++) {
      const text = `${String.fromCodePoint(cp)}x`;
      expect(linear.test(text)).toBe(native.test(text));
    }
  });

  it('agree on random patterns and strings', () => {
    const atom = fc.oneof(
      fc.constantFrom(
        'a',
        'b',
        'c',
        '.',
        '\\d',
        '\\s',
        '\\S',
        '\\w',
        '[ab]',
        '[^a]',
        '[a-c]',
        '\\.',
        'é',
        '😀',
        '[\\s\\d]',
      ),
      fc.constantFrom('^', '$', '\\b'),
    );
    const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,2}', '*?', '+?');
    const pattern = fc.letrec<{ seq: string; alt: string; group: string }>((tie) => ({
      group: fc.tuple(fc.constantFrom('(', '(?:'), tie('alt')).map(([open, body]) => `${open}${body})`),
      seq: fc
        .array(
          fc.tuple(fc.oneof({ depthSize: 'small', withCrossShrink: true }, atom, tie('group')), quantifier),
          { maxLength: 4 },
        )
        .map((parts) => parts.map(([a, q]) => (['^', '$', '\\b'].includes(a) ? a : `${a}${q}`)).join('')),
      alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
    })).alt;
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '1', ' ', '\n', '.', 'é', '😀', '\u2028', '_'), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 5 }), (source, texts) => {
        const translated = translatePattern(source);
        fc.pre(translated.ok && translated.size <= MAX_PATTERN_SIZE);
        const native = new RegExp(source, 'u');
        const linear = compileLinearRegExp(source);
        for (const chars of texts) {
          const t = chars.join('');
          if (linear.test(t) !== native.test(t)) throw new Error(`${source} on ${JSON.stringify(t)}`);
        }
      }),
      { numRuns: 600, seed: 4242 },
    );
  });
});

describe('patterns the engine cannot take are refused, with where and why', () => {
  const cases: [string, RegExp][] = [
    ['^(?=a)b', /lookahead \(\?= at character 2.*rewrite it without lookaround/],
    ['^(?!a)b', /negative lookahead \(\?! at character 2/],
    ['(?<=a)b', /lookbehind \(\?<= at character 1/],
    ['(?<!a)b', /negative lookbehind \(\?<! at character 1/],
    ['(a)\\1', /backreference \\1 at character 4/],
    ['(?<x>a)\\k<x>', /backreference \\k<x> at character 8/],
    ['a++', /possessive quantifier \+\+ at character 2/],
    ['a{2}+', /possessive quantifier \{2\}\+ at character 2/],
    ['(?>a)', /atomic group/],
    ['(?i)a', /not a group JavaScript patterns have/],
    ['a{1001}', /repeats \{1001\} at character 2, more than the 1000/],
    ['(a{10}){101}', /multiply to more than the 1000/],
    ['a{0,1000}'.repeat(16), new RegExp(`more than the ${MAX_PATTERN_SIZE}`)],
    ['\\uD800', /lone surrogate \\uD800 at character 1/],
    ['\ud800x', /lone surrogate/],
    ['\\p{Emoji}', /Unicode property \\p\{Emoji\} at character 1/],
    ['\\p{Script=Nowhere}', /not a pattern the linear-time engine takes/],
    ['a{', /"\{" at character 2 .* escaped as \\\{/],
    ['}', /lone "\}" at character 1/],
    ['\\q', /\\q at character 1 is not an escape/],
    ['(a', /group opened at character 1 is never closed/],
    ['a)', /"\)" at character 2 closes no group/],
    ['[a', /class opened at character 1 is never closed/],
    ['*a', /quantifier \* at character 1 has nothing to repeat/],
    ['a**', /nothing to repeat/],
    ['^*', /nothing to repeat/],
    ['[z-a]', /range ending at character 4 is out of order/],
    ['[\\d-z]', /class such as \\d at one end/],
    ['a{3,2}', /count \{3,2\} at character 2 is out of order/],
    ['('.repeat(1001) + ')'.repeat(1001), /nests groups more than 1000 deep/],
    ['a'.repeat(MAX_PATTERN_LENGTH + 1), new RegExp(`more than the ${MAX_PATTERN_LENGTH}`)],
  ];

  it.each(cases)('%s', (pattern, reason) => {
    expect(unsupportedReason(pattern)).toMatch(reason);
    expect(() => compileLinearRegExp(pattern)).toThrow(UnsupportedPatternError);
    expect(isLinearPattern(pattern)).toBe(false);
    try {
      compileLinearRegExp(pattern);
    } catch (e) {
      expect((e as UnsupportedPatternError).pattern).toBe(pattern);
      expect((e as Error).message).toContain('the pattern "');
    }
  });

  it('refuses everything native RegExp rejects with the u flag, among these', () => {
    for (const pattern of [
      '\\-',
      'a{,2}',
      '\\01',
      '\\c1',
      '\\xZ1',
      '\\u12',
      '\\u{110000}',
      '\\p',
      '\\k',
      ']',
      '(?<>a)',
      '[\\B]',
    ]) {
      expect(() => new RegExp(pattern, 'u')).toThrow(SyntaxError);
      expect([pattern, typeof unsupportedReason(pattern)]).toEqual([pattern, 'string']);
      expect(isLinearPattern(pattern)).toBe(false);
    }
  });

  it('checks a regex-format value the way it compiles a pattern, without compiling it', () => {
    for (const pattern of [...TYPICAL, '(a{10}){100}', '[a-z]{1000}']) {
      expect([pattern, isLinearPattern(`${pattern}`)]).toEqual([pattern, true]);
    }
  });

  it('measures size on the compiled program: counts count, shared prefixes do not', () => {
    // The regex format only estimates, so this one passes it; as a schema pattern it is refused.
    expect(isLinearPattern('a{0,1000}c{0,1000}')).toBe(true);
    expect(unsupportedReason('a{0,1000}c{0,1000}')).toMatch(/compiles to about 4002 steps/);
    const words = Array.from({ length: 1500 }, (_, i) => `w${i}`).join('|');
    expect(words.length).toBeGreaterThan(MAX_PATTERN_SIZE);
    expect(compileLinearRegExp(words).test('w1499')).toBe(true);
  });

  it('keeps its estimate of the program size in step with the engine', () => {
    for (const pattern of [
      '^[a-z0-9_-]{1,64}$',
      '(a{10}){100}',
      'a{0,1000}',
      '(?:\\S+\\s){100}',
      '(ab|cd|ef){0,200}',
    ]) {
      const translated = translatePattern(pattern);
      expect(translated.ok).toBe(true);
      if (translated.ok) expect(compileLinearRegExp(pattern).size).toBe(translated.size);
    }
    expect(compileLinearRegExp('(a{10}){100}').size).toBe(1202);
  });
});

describe('no backtracking', () => {
  it('catastrophic patterns on long strings finish', { timeout: 20_000 }, () => {
    const long = 100_000;
    expect(compileLinearRegExp('^(a+)+$').test(`${'a'.repeat(long)}!`)).toBe(false);
    expect(compileLinearRegExp('(x+x+)+y').test('x'.repeat(long))).toBe(false);
    expect(compileLinearRegExp('^(\\w+\\s?)*$').test(`${'a'.repeat(long)}!`)).toBe(false);
    expect(compileLinearRegExp('(.*a){20}').test('a'.repeat(long))).toBe(true);
    expect(compileLinearRegExp('^(a|a)*$').test(`${'a'.repeat(long)}b`)).toBe(false);
    expect(compileLinearRegExp('^(?:a|b|ab|ba)*c').test('ab'.repeat(long / 2))).toBe(false);
  });
});

describe('as ajv code.regExp', () => {
  it('returns one compiled pattern per pattern, keyed by its /source/u text', () => {
    const a = linearRegExpEngine('^a$', 'u');
    const b = linearRegExpEngine('^b$', 'u');
    expect(String(a)).toBe('/^a$/u');
    expect(String(b)).toBe('/^b$/u');
    expect(linearRegExpEngine('^a$', 'u')).toBe(a); // cached
    expect(a.test('a')).toBe(true);
    expect(typeof linearRegExpEngine.code).toBe('string');
  });

  it('refuses flags other than u with a TypeError', () => {
    expect(() => linearRegExpEngine('a', 'g')).toThrow(TypeError);
    expect(() => linearRegExpEngine('a', 'g')).toThrow(/flags "u" or "", got "g"/);
  });
});
