/**
 * Glob patterns on tool names: `*` is any run of characters (none included), `?` exactly one
 * (one code point), everything else is literal. Tool names are not paths, so there is no `/`
 * rule, no braces, classes or negation (a library like picomatch would bring path semantics
 * that surprise here: its `*` stops at `/`, and `mcp__fs__*` must match `mcp__fs__read/dir`).
 *
 * Names may come from an MCP server (untrusted, any length), so matching is not a regular
 * expression, whose backtracking over several stars is polynomial of high degree in the
 * name's length: it is the classic two-pointer wildcard match. On a mismatch it goes back to
 * the last star only, letting that star take one more character; earlier stars never need to
 * be revisited (any placement a later star could fix, it fixes from the leftmost match), so
 * the work is at most (name length) x (pattern length) steps, iteratively.
 */
import { describeValue as describe } from '../../language/describe-value.js';

/** A compiled pattern. */
export interface Glob {
  readonly pattern: string;
  matches(name: string): boolean;
}

export function compileGlob(pattern: string): Glob {
  const tokens = Array.from(pattern);
  return { pattern, matches: (name) => wildcardMatch(tokens, Array.from(name)) };
}

function wildcardMatch(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  /** Where in the name the last star's run ends for now. */
  let starEnd = 0;
  while (n < name.length) {
    const token = pattern[p];
    if (token === '*') {
      star = p++;
      starEnd = n;
    } else if (token !== undefined && (token === '?' || token === name[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++starEnd;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
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
