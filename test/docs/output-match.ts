/**
 * Compares the output a page shows with the output a command prints, once both are normalised:
 * durations, dates, `...Ms` JSON figures, loopback ports, long hex ids and the folders the test
 * ran in become placeholders. In the shown output a line that is only `…` (or `...`) stands for
 * any number of lines, and `…` inside a line for any text on that line.
 */

export interface NormaliseOptions {
  /**
   * Absolute folders (the repository, the scratch folder) printed paths may start with.
   * @default []
   */
  readonly folders?: readonly string[];
}

export function normalise(text: string, options: NormaliseOptions = {}): string {
  let result = text.replace(/\r\n/g, '\n');
  for (const folder of options.folders ?? []) result = result.split(folder).join('<dir>');
  return result
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<date>')
    .replace(/("[A-Za-z]*Ms"):\s?\d+(?:\.\d+)?/g, '$1:<n>')
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|µs|s)\b/g, '<time>')
    .replace(/\b(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '$1:<port>')
    .replace(/\b[0-9a-f]{16,}\b/g, '<id>')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n+$/, '');
}

const ANY_LINES = new Set(['…', '...']);

/** Whether `actual` is what `shown` shows, both normalised already. */
export function matchesShown(shown: string, actual: string): boolean {
  const pattern = shown.split('\n');
  const lines = actual.split('\n');
  // Glob matching over lines: reachable[j] says pattern[..i] can cover lines[..j]. O(n·m), no
  // backtracking.
  let reachable = new Array<boolean>(lines.length + 1).fill(false);
  reachable[0] = true;
  for (const expected of pattern) {
    const next = new Array<boolean>(lines.length + 1).fill(false);
    if (ANY_LINES.has(expected.trim())) {
      let seen = false;
      for (let j = 0; j <= lines.length; j++) next[j] = seen ||= reachable[j]!;
    } else {
      for (let j = 0; j < lines.length; j++)
        if (reachable[j] && lineMatches(expected, lines[j]!)) next[j + 1] = true;
    }
    reachable = next;
  }
  return reachable[lines.length]!;
}

/** A line with `…` wildcards against one printed line: leftmost matching of the fixed parts. */
function lineMatches(expected: string, actual: string): boolean {
  const parts = expected.split('…');
  if (parts.length === 1) return expected === actual;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (!actual.startsWith(first) || actual.length < first.length + last.length) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = actual.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return actual.length - last.length >= at && actual.endsWith(last);
}
