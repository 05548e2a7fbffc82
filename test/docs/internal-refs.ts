/**
 * Words that point outside the package: its working documents, its tracker, its test seeds. A
 * user has none of them, so neither the docs nor anything the package ships may cite them.
 */
export const INTERNAL_REFS: readonly [RegExp, string][] = [
  [/\bSPEC\b/, 'SPEC'],
  [/\bDESIGN\.md\b/, 'DESIGN.md'],
  [/\.\.\/shared\b/, '../shared'],
  [/\bseeds?\/\d/, 'seeds/NNN'],
  [/\bthe seed\b/i, 'the seed'],
  [/\b(the|this) issue\b/i, 'the issue'],
  [/\bissue #?\d+/i, 'issue N'],
];

/** Every line of `text` that cites an internal document, as `file:line: name: the line`. */
export function internalRefs(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [pattern, name] of INTERNAL_REFS) {
      if (pattern.test(line)) found.push(`${file}:${index + 1}: ${name}: ${line.trim()}`);
    }
  });
  return found;
}
