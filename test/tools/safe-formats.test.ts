/**
 * Every string format ajv checks stays linear in the string's length, on strings built to make
 * backtracking regexes slow: 100,000 characters, so a quadratic check (ajv-formats' own `url`
 * took 1.9 s at 40,000, so 12 s at 100,000, for each of several of these strings, and there are
 * 880 strings per format) trips the test's 60-second timeout. No time is asserted. The timeout
 * is that wide because a linear check of all 880 strings took over 20 s on a 2-core machine
 * running two copies of the suite at once (load 19); a quadratic one needs hours.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAFE_FORMATS } from '../../src/tools/safe-formats.js';
import { SchemaCompiler } from '../../src/tools/schema-validator.js';

const N = 100_000;
const UNITS = [
  'a',
  '0',
  '.',
  '-',
  ':',
  '/',
  '%',
  '@',
  ' ',
  '~',
  '{',
  '\\',
  'a.',
  'a-',
  '0:',
  'a@',
  '1.',
  '::',
  'a:a',
  'T',
  'é',
  '%41',
];
const PREFIXES = ['', 'http://', 'http://a:', 'a@', 'P', '2020-01-01T', '/', '['];
const ENDINGS = ['', '!', '\u0000', '#', ' '];

const STRING_FORMATS = Object.entries(fullFormats)
  .filter(([, format]) => !(typeof format === 'object' && 'type' in format && format.type === 'number'))
  .map(([name]) => name);

describe('string formats on adversarial strings', () => {
  const compiler = new SchemaCompiler();

  it.each(STRING_FORMATS)('%s stays linear', { timeout: 60_000 }, (format) => {
    const validate = compiler.compile({ type: 'string', format });
    let checked = 0;
    for (const prefix of PREFIXES)
      for (const unit of UNITS)
        for (const ending of ENDINGS) {
          const text = prefix + unit.repeat(Math.ceil(N / unit.length)) + ending;
          expect(typeof validate(text)).toBe('boolean');
          checked++;
        }
    expect(checked).toBe(PREFIXES.length * UNITS.length * ENDINGS.length);
  });

  it('url no longer tries every split of a run of colons', { timeout: 30_000 }, () => {
    const validate = compiler.compile({ type: 'string', format: 'url' });
    expect(validate(`http://a:${':'.repeat(N)}#`)).toBe(false);
    expect(validate('http://user:pass@example.com:8080/path?q=1')).toBe(true);
  });
});

describe('url means what ajv-formats means', () => {
  const original = fullFormats.url as RegExp;
  const safe = SAFE_FORMATS.url as RegExp;

  it('on random short strings made of URL parts', () => {
    const part = fc.constantFrom(
      'http://',
      'ftp://',
      'a',
      'b0',
      ':',
      '::',
      '@',
      '.',
      '-',
      '/',
      'com',
      '10',
      '192.168',
      '.1',
      'é',
      ' ',
      '8080',
      'x:y@',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        expect([text, safe.test(text)]).toEqual([text, original.test(text)]);
      }),
      { numRuns: 5_000, seed: 7 },
    );
  });

  it('on URLs people write', () => {
    for (const text of [
      'http://example.com',
      'https://user:pa:ss@example.com/a/b?c=d#e',
      'ftp://10.0.0.1/x',
      'http://192.168.0.1',
      'http://172.16.0.1',
      'http://8.8.8.8:53',
      'http://exa_mple.com',
      'http://пример.рф',
      'http://:@example.com',
      'http://a@b@example.com',
      'mailto:a@b.c',
    ])
      expect([text, safe.test(text)]).toEqual([text, original.test(text)]);
  });
});

describe('regex format', () => {
  const compiler = new SchemaCompiler();
  const validate = compiler.compile({ type: 'string', format: 'regex' });

  it('accepts the patterns the linear-time engine takes, and only those', () => {
    expect(validate('^[a-z]+$')).toBe(true);
    expect(validate('^(a+)+$')).toBe(true); // catastrophic for backtracking, linear here
    expect(validate('^(?=a)')).toBe(false);
    expect(validate('(a)\\1')).toBe(false);
    expect(validate('a{2')).toBe(false);
    expect(validate('[z-a]')).toBe(false);
  });

  it('checks many long distinct values without compiling them', { timeout: 30_000 }, () => {
    let valid = 0;
    for (let i = 0; i < 2_000; i++) if (validate(`(?:[a-z]{30}){${(i % 90) + 10}}${i}`)) valid++;
    expect(valid).toBeGreaterThan(0);
    expect(validate(`${'(a|b)'.repeat(1_999)}`)).toBe(true);
    expect(validate('a'.repeat(20_000))).toBe(false); // over the length the engine takes
  });
});
