/**
 * Glob patterns on tool names: `*` is any run of characters (none included), `?` exactly one,
 * everything else is literal. Tool names are not paths, so there is no `/` rule, no braces,
 * classes or negation (a library like picomatch would bring path semantics that surprise
 * here: its `*` stops at `/`, and `mcp__fs__*` must match `mcp__fs__read/dir` too).
 */
import { describeValue as describe } from './describe-value.js';

/** A compiled pattern. */
export interface Glob {
  readonly pattern: string;
  matches(name: string): boolean;
}

export function compileGlob(pattern: string): Glob {
  let source = '^';
  for (const char of pattern) {
    if (char === '*') source += '[\\s\\S]*';
    else if (char === '?') source += '[\\s\\S]';
    else source += char.replace(/[\\^$.|+(){}[\]]/g, '\\$&');
  }
  const regex = new RegExp(`${source}$`, 'u');
  return { pattern, matches: (name) => regex.test(name) };
}

/**
 * Checks an option that holds patterns and compiles them.
 * @throws {TypeError} naming the option and the bad value.
 */
export function compileGlobs(where: string, value: unknown): readonly Glob[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(`${where} must be an array of tool-name patterns, not ${describe(value)}`);
  }
  return value.map((pattern, index) => {
    if (typeof pattern !== 'string' || pattern === '') {
      throw new TypeError(`${where}[${index}] must be a non-empty string, not ${describe(pattern)}`);
    }
    return compileGlob(pattern);
  });
}

/** The first pattern that matches, if any. */
export function firstMatch(globs: readonly Glob[], name: string): Glob | undefined {
  for (const glob of globs) if (glob.matches(name)) return glob;
  return undefined;
}
