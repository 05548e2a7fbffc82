/**
 * ajv-formats' checks that are not linear in the string they check, replaced. Every string
 * format of ajv-formats 3.0.1 ("full" mode) was timed on strings of 10k and 40k characters of
 * repeated characters, with and without a bad last character (test/tools/safe-formats.test.ts
 * keeps the check). Two needed replacing:
 *
 * - `regex` compiled the value with `new RegExp`: the value comes from a plan, and a pattern
 *   the backtracking engine accepts is not one ajv can match safely. It is now "a pattern the
 *   linear-time engine takes", the same test schema patterns pass.
 * - `url` took quadratic time on `http://a:` and many colons (59 ms at 10k characters, 1.9 s at
 *   40k): its userinfo part `(?:\S+(?::\S*)?@)?` tries every split of the colons. `\S+(?::\S*)?@`
 *   and `\S+@` match the same strings (the colon and what follows are non-space characters
 *   too), so the regex below is ajv-formats' own with that part written `(?:\S+@)?`.
 *
 * The others, including `email`, `hostname`, `uri`, `uri-reference`, `uri-template`, `ipv6` and
 * `date-time`, stay linear. `iri`, `idn-email` and `idn-hostname` are not ajv-formats formats
 * (ajv ignores them in non-strict mode), so no string is checked against them at all.
 */
import type { Format } from 'ajv';
import { isLinearPattern } from './patterns/index.js';

const URL =
  /^(?:https?|ftp):\/\/(?:\S+@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu;

/** Formats added over ajv-formats' own, by name. */
export const SAFE_FORMATS: Readonly<Record<string, Format>> = {
  regex: (text: string) => isLinearPattern(text),
  url: URL,
};
