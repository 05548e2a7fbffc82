/**
 * Where JSON pointers land in a JSON text: the offsets of many pointers found in one pass over
 * the text, without building a syntax tree. The pointers wanted form a trie; the scan follows it
 * into the members and elements that lead somewhere and skips every other value at the speed of
 * a character loop. A loop over an explicit stack, not recursion: a document nested 100,000
 * deep is scanned like any other. The text must be JSON (it is only ever given text that
 * JSON.parse accepted); on anything else the scan stops and reports what it found so far.
 */
import { splitPointer } from '../pointer.js';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipString,
} from './json-scan.js';

/** Where one pointer landed. */
export interface PointerOffset {
  /** Offset of the value's first character, or of its nearest ancestor's when it is not there. */
  readonly value: number;
  /** Offset of the member's key (its opening quote), when the pointer names an object member. */
  readonly key: number | undefined;
  /** False when the value is missing and `value` is an ancestor's. */
  readonly found: boolean;
}

interface Node {
  readonly parent: Node | null;
  children: Map<string, Node> | null;
  value: number;
  key: number;
}

interface Frame {
  readonly node: Node | null;
  readonly object: boolean;
  /** Elements stepped into so far (arrays). */
  index: number;
  /** The node of the member or element just stepped into (null: nothing wanted inside it). */
  entered: Node | null;
}

/** The offsets of `pointers` in `text`, in the same order. */
export function pointerOffsets(text: string, pointers: readonly string[]): PointerOffset[] {
  const root: Node = { parent: null, children: null, value: -1, key: -1 };
  const nodes = pointers.map((pointer) => {
    let node = root;
    for (const token of splitPointer(pointer)) {
      node.children ??= new Map();
      let child = node.children.get(token);
      if (!child) {
        child = { parent: node, children: null, value: -1, key: -1 };
        node.children.set(token, child);
      }
      node = child;
    }
    return node;
  });
  scan(text, root);
  return nodes.map((node) => {
    let at: Node | null = node;
    while (at && at.value < 0) at = at.parent;
    return {
      value: at ? at.value : 0,
      key: node.value >= 0 && node.key >= 0 ? node.key : undefined,
      found: at === node,
    };
  });
}

function scan(text: string, root: Node): void {
  const stack: Frame[] = [];
  let i = skipSpace(text, 0);
  let node: Node | null = root;
  for (;;) {
    // A value starts at i, for `node` (null: nobody asked for anything inside it).
    if (i >= text.length) return;
    if (node) node.value = i;
    const c = text.charCodeAt(i);
    if ((c === OPEN_BRACE || c === OPEN_BRACKET) && node?.children) {
      const frame: Frame = { node, object: c === OPEN_BRACE, index: 0, entered: null };
      stack.push(frame);
      i = skipSpace(text, i + 1);
      const close = text.charCodeAt(i);
      if (close === CLOSE_BRACE || close === CLOSE_BRACKET) {
        stack.pop();
        i = skipSpace(text, i + 1);
      } else {
        i = enterMember(text, i, frame);
        if (i < 0) return;
        node = frame.entered;
        continue;
      }
    } else {
      i = skipValue(text, i);
      if (i < 0) return;
      i = skipSpace(text, i);
    }
    // The value ended: on to the next member or element, or out of finished containers.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (!frame) return;
      const c2 = text.charCodeAt(i);
      if (c2 === COMMA) {
        i = enterMember(text, skipSpace(text, i + 1), frame);
        if (i < 0) return;
        node = frame.entered;
        break;
      }
      if (c2 !== CLOSE_BRACE && c2 !== CLOSE_BRACKET) return;
      stack.pop();
      i = skipSpace(text, i + 1);
    }
  }
}

/**
 * Steps into the next member (past its key and colon) or element of the container `frame`
 * walks, at `i`; returns where its value starts (its node in `frame.entered`), or -1 on a text
 * that is not JSON.
 */
function enterMember(text: string, i: number, frame: Frame): number {
  const children = frame.node?.children;
  if (!frame.object) {
    frame.entered = children?.get(String(frame.index)) ?? null;
    frame.index++;
    return i;
  }
  if (text.charCodeAt(i) !== QUOTE) return -1;
  const end = skipString(text, i);
  if (end < 0) return -1;
  let child: Node | null = null;
  if (children) {
    const raw = text.slice(i + 1, end - 1);
    const key = raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(i, end)) as string);
    child = children.get(key) ?? null;
    // JSON.parse keeps the last of duplicate keys: so does this, by overwriting.
    if (child) child.key = i;
  }
  const colon = skipSpace(text, end);
  if (text.charCodeAt(colon) !== COLON) return -1;
  frame.entered = child;
  return skipSpace(text, colon + 1);
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** The offset just past the value starting at `i` (any kind, containers whole), or -1. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    for (;;) {
      const d = text.charCodeAt(j);
      if (Number.isNaN(d) || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d <= 0x20) return j;
      j++;
    }
  }
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === QUOTE) {
      j = skipString(text, j);
      if (j < 0) return -1;
      continue;
    }
    if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return -1;
}
