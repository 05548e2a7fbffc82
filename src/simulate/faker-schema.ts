/**
 * An output schema as json-schema-faker may see it. The faker matches with JavaScript's own
 * backtracking RegExp and generates strings from patterns without a bound, so two things in a
 * schema (one from an MCP server, say) could hang or exhaust a dry run:
 *
 * - `patternProperties`: the faker tests each pattern against the schema's property names with
 *   `new RegExp`, and `^(a+)+$` against a 28-character name took 9 s (40 characters: hours).
 *   They are left out: a sample then ignores what they say about named properties.
 * - a `pattern` whose strings would be huge: the faker repeats `*` and `+` up to 5 times and
 *   counts up to 5 past their minimum, so nesting multiplies (twelve nested stars gave a
 *   242,000-character string, each level five times the last). A pattern whose strings could be
 *   longer than {@link MAX_SAMPLED_PATTERN_LENGTH} is left out, and the faker samples a plain
 *   string of the schema's other constraints instead.
 *
 * The patterns themselves passed the tool registry (linear-time engine, bounded size), and the
 * schema is copied only when something must go.
 */
import { splitPointer } from '../language/pointer.js';
import { findSchemaPatterns } from '../tools/schema-patterns.js';
import type { JsonSchema } from '../tools/tool.js';

/** The longest string a sampled pattern may make. */
export const MAX_SAMPLED_PATTERN_LENGTH = 10_000;

/** json-schema-faker repeats an open-ended quantifier (and a range) at most this much past its minimum. */
const FAKER_SPREAD = 5;

/** `schema`, or a copy without what json-schema-faker cannot be given safely (see the header). */
export function schemaForFaker(schema: JsonSchema): JsonSchema {
  const removals = findSchemaPatterns(schema).filter(
    (found) =>
      found.keyword === 'patternProperties' || fakerLengthBound(found.pattern) > MAX_SAMPLED_PATTERN_LENGTH,
  );
  if (removals.length === 0) return schema;
  const copy = structuredClone(schema);
  for (const found of removals) {
    const tokens = splitPointer(found.pointer);
    // `.../pattern` loses its pattern; `.../patternProperties/<key>` loses all of them.
    const keep = found.keyword === 'pattern' ? tokens.length - 1 : tokens.length - 2;
    let node: unknown = copy;
    for (let i = 0; i < keep && node !== null && typeof node === 'object'; i++)
      node = (node as Record<string, unknown>)[tokens[i]!];
    if (node !== null && typeof node === 'object') delete (node as Record<string, unknown>)[tokens[keep]!];
  }
  return copy;
}

/**
 * An upper bound on the length of a string json-schema-faker generates from `pattern`: every
 * character may be one character of output (an escape or a class is fewer), an alternation is
 * its longest branch, and a quantifier multiplies what it repeats by the most the faker repeats
 * it: `*` and `+` 5 times, `{n}` n, `{n,m}` at most m and n + 5, `{n,}` n + 5. One pass with a
 * stack of open groups.
 */
export function fakerLengthBound(pattern: string): number {
  const frames: { longest: number; current: number }[] = [{ longest: 0, current: 0 }];
  /** Length of the last atom or group, which a quantifier multiplies. */
  let last = 0;
  const top = () => frames[frames.length - 1]!;
  const repeat = (times: number) => {
    top().current += last * (times - 1);
    last *= times;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++; // the escaped character: one atom, whatever it is
      last = 1;
      top().current += 1;
    } else if (c === '[') {
      i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      last = 1;
      top().current += 1;
    } else if (c === '(') {
      frames.push({ longest: 0, current: 0 });
      last = 0;
    } else if (c === ')') {
      const group = frames.length > 1 ? frames.pop()! : top();
      last = Math.max(group.longest, group.current);
      top().current += last;
    } else if (c === '|') {
      top().longest = Math.max(top().longest, top().current);
      top().current = 0;
      last = 0;
    } else if (c === '*' || c === '+') {
      repeat(FAKER_SPREAD);
    } else if (c === '?') {
      last = 0; // at most once (or a lazy marker): adds nothing to the bound
    } else if (c === '{') {
      const close = pattern.indexOf('}', i);
      const counts = close < 0 ? null : /^(\d+)(?:,(\d*))?$/.exec(pattern.slice(i + 1, close));
      if (counts) {
        const min = Number(counts[1]);
        const max = counts[2] === undefined ? min : counts[2] === '' ? Infinity : Number(counts[2]);
        repeat(Math.max(1, Math.min(max, min + FAKER_SPREAD)));
        i = close;
      } else {
        last = 1;
        top().current += 1;
      }
    } else {
      last = 1;
      top().current += 1;
    }
  }
  let length = 0;
  for (const frame of frames) length += Math.max(frame.longest, frame.current);
  return length;
}
