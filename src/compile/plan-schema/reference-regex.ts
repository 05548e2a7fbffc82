/**
 * The reference grammar as linear regular expressions (no nested quantifiers that can backtrack
 * badly), in two dialects built from the same parts so that they cannot drift apart:
 *
 * - `ecma`: the patterns of the `json-schema` and `openai-strict` formats, in the ECMAScript
 *   syntax JSON Schema names (`(?:...)` groups, `\s`).
 * - `grammar`: the patterns of the `grammar` format, in the regex subset every grammar-based
 *   decoder enforces (see grammar-regex.ts): plain groups, a space class instead of `\s`, and
 *   nothing a JSON string would have to escape, since those decoders match a pattern against
 *   the characters between the quotes of the JSON text, not against the decoded string. So the
 *   quoted key segment (`["a b"]`) is left out (its quotes are `\"` in the JSON text) and a
 *   filter's text admits no `"`, `\` or control character (a filter's text is in single quotes).
 */

export type ReferenceRegexDialect = 'ecma' | 'grammar';

interface DialectParts {
  /** Opens a group that only groups. */
  readonly group: string;
  /** Whitespace around `||` and `&&`. */
  readonly space: string;
  /** Whether `["<JSON string>"]` segments are admitted. */
  readonly quotedKey: boolean;
  /** One character of a filter's expression that is not a bracket. */
  readonly filterChar: string;
}

const DIALECTS: Record<ReferenceRegexDialect, DialectParts> = {
  ecma: { group: '(?:', space: String.raw`\s*`, quotedKey: true, filterChar: String.raw`[^\[\]]` },
  grammar: {
    group: '(',
    space: '[ ]*',
    quotedKey: false,
    filterChar: String.raw`[^\[\]"\\\x00-\x1F]`,
  },
};

export interface ReferencePatterns {
  /** A reference expression: `†input.<path>` or `†state.<path>`, alternatives with `||` or all with `&&`. */
  readonly reference: string;
  /** `†item`, `†item.<path>` or `†index`: the element of a `_forEach` call, or its position. */
  readonly element: string;
  /** What an argument string that is a reference may be: a reference expression or an element reference. */
  readonly argumentReference: string;
  /** An `_outputPath`: `†state.<path>`, alternatives with `||` or fan-out with `&&`; no `[*]`. */
  readonly outputPath: string;
  /** An `_onError`: one `†state.<path>`, one of the call's `||` alternatives. */
  readonly onError: string;
}

/** The reference patterns in one dialect, each anchored at both ends (`^...$`). */
export function referencePatterns(dialect: ReferenceRegexDialect): ReferencePatterns {
  const { group: g, space, quotedKey, filterChar } = DIALECTS[dialect];
  const quoted = quotedKey ? String.raw`|\["${g}[^"\\]|\\.)*"\]` : '';
  const segment = String.raw`${g}\.${g}[A-Za-z_$][A-Za-z0-9_$-]*|[0-9]+)|\[[0-9]+\]${quoted})`;
  // JSONPath selections in reads (selection.ts): a filter's expression is the compiler's to check.
  const int = `${g}0|[1-9][0-9]*)`;
  const selection = String.raw`\[\?\(${g}${filterChar}|\[[0-9]+\])*\)\]|\[${g}-?${int})?:${g}-?${int})?${g}:[1-9][0-9]*)?\]|\[-[1-9][0-9]*\]|\[${int}${g},${int})+\]|\.\.[A-Za-z_][A-Za-z0-9_-]*`;
  const readSegment = String.raw`${g}${segment}|\[\*\]|${selection})`;
  const read = `†${g}input|state)${readSegment}*`;
  const write = `†state${segment}*`;
  const alternatives = (ref: string) =>
    String.raw`${ref}${g}${space}\|\|${space}${ref})*|${ref}${g}${space}&&${space}${ref})*`;
  const expression = (ref: string) => `^${g}${alternatives(ref)})$`;
  // The element of a `_forEach` call and its position: one whole string, never joined.
  const element = `†item${readSegment}*|†index`;
  return {
    reference: expression(read),
    element: `^${g}${element})$`,
    argumentReference: `^${g}${alternatives(read)}|${element})$`,
    outputPath: expression(write),
    onError: `^${write}$`,
  };
}
