/**
 * A command line split into words the way a POSIX shell splits it, and nothing more: no
 * variables, globs, pipes or redirections are interpreted (the command is spawned without a
 * shell), so `$HOME`, `*` and `|` are plain characters.
 *
 * - whitespace separates words;
 * - `'...'` keeps everything inside as is;
 * - `"..."` keeps everything inside, except that a backslash escapes `"`, `\`, `$` and `` ` ``;
 * - outside quotes a backslash escapes the next character (a backslash-newline is dropped).
 */

/** @throws {SyntaxError} for an unclosed quote or a trailing backslash, naming the column. */
export function splitCommandLine(line: string): string[] {
  if (typeof line !== 'string') throw new TypeError(`a command line must be a string, not ${typeof line}`);
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new SyntaxError(`unclosed ' at column ${i + 1}`);
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const start = i;
      i++;
      for (;;) {
        if (i >= line.length) throw new SyntaxError(`unclosed " at column ${start + 1}`);
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
          if (line[i + 1] !== '\n') word += line[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length)
        throw new SyntaxError(`a backslash at the end (column ${i + 1}) escapes nothing`);
      if (line[i + 1] === '\n') {
        // A line continuation joins, it does not start a word.
        inWord = word !== '';
      } else word += line[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The words back as one line a shell would split the same way (for messages). */
export function joinCommandLine(words: readonly string[]): string {
  return words
    .map((w) => (w !== '' && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
