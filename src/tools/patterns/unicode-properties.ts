/**
 * `\p{...}` as JavaScript spells it, in the names RE2 knows. JavaScript accepts a General
 * Category by short or long name, alone or after `gc=`/`General_Category=`, and a script after
 * `sc=`/`Script=`; RE2 knows General Categories by short name and scripts by long name, both
 * alone. Binary properties (`Emoji`, `Alphabetic`, ...) and `Script_Extensions` have no RE2
 * counterpart, except the three spelled out below.
 */

/** Long General_Category names (UCD PropertyValueAliases.txt) to the short ones RE2 takes. */
const GENERAL_CATEGORY_LONG_NAMES: Readonly<Record<string, string>> = {
  Cased_Letter: 'LC',
  Close_Punctuation: 'Pe',
  Connector_Punctuation: 'Pc',
  Control: 'Cc',
  cntrl: 'Cc',
  Currency_Symbol: 'Sc',
  Dash_Punctuation: 'Pd',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Enclosing_Mark: 'Me',
  Final_Punctuation: 'Pf',
  Format: 'Cf',
  Initial_Punctuation: 'Pi',
  Letter: 'L',
  Letter_Number: 'Nl',
  Line_Separator: 'Zl',
  Lowercase_Letter: 'Ll',
  Mark: 'M',
  Combining_Mark: 'M',
  Math_Symbol: 'Sm',
  Modifier_Letter: 'Lm',
  Modifier_Symbol: 'Sk',
  Nonspacing_Mark: 'Mn',
  Number: 'N',
  Open_Punctuation: 'Ps',
  Other: 'C',
  Other_Letter: 'Lo',
  Other_Number: 'No',
  Other_Punctuation: 'Po',
  Other_Symbol: 'So',
  Paragraph_Separator: 'Zp',
  Private_Use: 'Co',
  Punctuation: 'P',
  punct: 'P',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Spacing_Mark: 'Mc',
  Surrogate: 'Cs',
  Symbol: 'S',
  Titlecase_Letter: 'Lt',
  Unassigned: 'Cn',
  Uppercase_Letter: 'Lu',
};

const GENERAL_CATEGORY_SHORT_NAMES = new Set(Object.values(GENERAL_CATEGORY_LONG_NAMES));

/** Binary properties RE2 can express another way. */
const BINARY_PROPERTIES: Readonly<Record<string, { positive: string; negative: string }>> = {
  Any: { positive: '\\p{Any}', negative: '\\P{Any}' },
  ASCII: { positive: '\\x{0}-\\x{7F}', negative: '\\x{80}-\\x{10FFFF}' },
  Assigned: { positive: '\\P{Cn}', negative: '\\p{Cn}' },
};

/**
 * The RE2 text for JavaScript's `\p{body}` (or `\P{body}` when `negated`), or undefined when
 * RE2 has no such property. `inClass` matters only for the ASCII ranges, which need brackets
 * outside a class. A script name is passed on as given: RE2 rejects one it does not know.
 */
export function translateProperty(body: string, negated: boolean, inClass: boolean): string | undefined {
  const p = negated ? 'P' : 'p';
  const equals = body.indexOf('=');
  if (equals >= 0) {
    const name = body.slice(0, equals);
    const value = body.slice(equals + 1);
    if (name === 'General_Category' || name === 'gc') return generalCategory(value, p);
    if (name === 'Script' || name === 'sc')
      return /^[A-Za-z_]+$/.test(value) ? `\\${p}{${value}}` : undefined;
    return undefined;
  }
  const category = generalCategory(body, p);
  if (category !== undefined) return category;
  const binary = Object.hasOwn(BINARY_PROPERTIES, body) ? BINARY_PROPERTIES[body] : undefined;
  if (binary === undefined) return undefined;
  const text = negated ? binary.negative : binary.positive;
  return text.startsWith('\\x') && !inClass ? `[${text}]` : text;
}

function generalCategory(name: string, p: string): string | undefined {
  if (GENERAL_CATEGORY_SHORT_NAMES.has(name)) return `\\${p}{${name}}`;
  const short = Object.hasOwn(GENERAL_CATEGORY_LONG_NAMES, name)
    ? GENERAL_CATEGORY_LONG_NAMES[name]
    : undefined;
  return short === undefined ? undefined : `\\${p}{${short}}`;
}
