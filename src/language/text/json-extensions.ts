/**
 * JSON as people and models write it: `//` and `/* *\/` comments and trailing commas (plans
 * annotated by hand, or copied back by a model, often have them). JSON.parse refuses them, so a text it refused is
 * blanked: each comment and each trailing comma becomes spaces of the same length, line breaks
 * kept, and the text is parsed again. Every offset, line and column of the blanked text is the
 * original's, so diagnostics point into the text as written.
 *
 * One pass, left to right, over an explicit state (no regex, no recursion): strings are skipped
 * whole (a `//` inside one is text), a comment runs to its end, and a comma is trailing when the
 * next thing that is not space or comment closes its array or object and a value came before it
 * (`[1,]` is tolerated; `[,]`, `[1,,]` and `{"a":,}` are not). Linear in the text's length.
 */

export type JsonExtensionKind = 'line-comment' | 'block-comment' | 'trailing-comma';

/** One thing JSON does not allow that was blanked. */
export interface JsonExtension {
  readonly kind: JsonExtensionKind;
  /** Offset of its first character in the text. */
  readonly offset: number;
}

export type BlankedJson =
  | {
      /** The text with every extension blanked; same length, same line breaks. */
      readonly text: string;
      /** The first `keep` extensions found, in text order. */
      readonly extensions: readonly JsonExtension[];
      /** How many were found in all. */
      readonly count: number;
    }
  | {
      /** A `/*` with no `*\/` after it: the text cannot be read, and this is where it fails. */
      readonly unterminatedComment: number;
    };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * `text` with its comments and trailing commas blanked, and where they were (the first `keep`
 * of them; all are counted).
 */
export function blankJsonExtensions(text: string, keep = Number.POSITIVE_INFINITY): BlankedJson {
  const extensions: JsonExtension[] = [];
  let count = 0;
  const pieces: string[] = [];
  /** Start of the text not yet copied into `pieces`. */
  let copied = 0;
  const blank = (kind: JsonExtensionKind, start: number, end: number) => {
    if (count++ < keep) extensions.push({ kind, offset: start });
    pieces.push(text.slice(copied, start), spacesKeepingLineBreaks(text, start, end));
    copied = end;
  };
  /** A comma that may be trailing, waiting for what comes next (-1: none). */
  let pendingComma = -1;
  /**
   * Comments after a pending comma: blanked once the comma is decided, so that pieces and
   * places stay in text order. Each is deferred once, so the pass stays linear.
   */
  const deferred: { kind: JsonExtensionKind; start: number; end: number }[] = [];
  const comment = (kind: JsonExtensionKind, start: number, end: number) => {
    if (pendingComma >= 0) deferred.push({ kind, start, end });
    else blank(kind, start, end);
  };
  /** Decides the pending comma (trailing or not), then blanks the comments that waited for it. */
  const settle = (trailing: boolean) => {
    if (pendingComma >= 0 && trailing) blank('trailing-comma', pendingComma, pendingComma + 1);
    pendingComma = -1;
    for (const d of deferred) blank(d.kind, d.start, d.end);
    deferred.length = 0;
  };
  /** The last significant character ended a value (so a comma after it may be trailing). */
  let afterValue = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === LINE_FEED || c === CARRIAGE_RETURN || c === 0x09) {
      i++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      let end = i + 2;
      while (end < n && text.charCodeAt(end) !== LINE_FEED && text.charCodeAt(end) !== CARRIAGE_RETURN) end++;
      comment('line-comment', i, end);
      i = end;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return { unterminatedComment: i };
      comment('block-comment', i, close + 2);
      i = close + 2;
      continue;
    }
    if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      settle(true);
      afterValue = true;
      i++;
      continue;
    }
    settle(false);
    if (c === COMMA) {
      pendingComma = afterValue ? i : -1;
      afterValue = false;
      i++;
      continue;
    }
    if (c === QUOTE) {
      i = skipString(text, i);
      afterValue = true;
      continue;
    }
    afterValue = c !== OPEN_BRACKET && c !== OPEN_BRACE && c !== COLON;
    i++;
  }
  settle(false);
  if (count === 0) return { text, extensions, count };
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), extensions, count };
}

/** The offset just past the string whose opening quote is at `i` (the text's end if it never closes). */
function skipString(text: string, i: number): number {
  const n = text.length;
  let j = i + 1;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    j += c === BACKSLASH ? 2 : 1;
  }
  return n;
}

/** As many spaces as text[start, end) has characters, its line breaks kept where they are. */
function spacesKeepingLineBreaks(text: string, start: number, end: number): string {
  let out = '';
  let run = start;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c !== LINE_FEED && c !== CARRIAGE_RETURN) continue;
    out += ' '.repeat(k - run) + text[k];
    run = k + 1;
  }
  return out + ' '.repeat(end - run);
}
