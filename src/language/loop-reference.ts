/**
 * `†item` and `†index`: the element a `_forEach` call runs for, and its position. They are not
 * roots of the state or the input (the scanner refuses them there with E_FOR_EACH_REF); the
 * reader of a `_forEach` call's arguments takes them with {@link parseLoopReference}, and the
 * run fills them in per element with {@link resolveLoopReference}.
 *
 *     loop-ref := "†item" ( "." segment | "[" digits "]" | "[" json-string "]" | "[*]" )*
 *               | "†index"
 *
 * The path after `†item` is the grammar of a state path: it is scanned as one.
 */
import { firstSelector, getAtPath, type PathSegment, type Wildcard } from './paths.js';
import { scanner } from './reference-scanner.js';
import { canSelectFrom, selectFrom } from './resolve.js';

/** A `†item...` or `†index` string, the whole value of an argument of a `_forEach` call. */
export interface LoopReference {
  readonly root: 'item' | 'index';
  /** The path into the element (always empty for `†index`). */
  readonly segments: readonly (PathSegment | Wildcard)[];
  /** The string as written. */
  readonly text: string;
}

/** The loop reference `text` is, or null when it is not exactly one (`†item || †state.x`, `†index.a`…). */
export function parseLoopReference(text: string): LoopReference | null {
  if (text === '†index') return { root: 'index', segments: [], text };
  if (!text.startsWith('†item')) return null;
  const rest = text.slice('†item'.length);
  if (rest === '') return { root: 'item', segments: [], text };
  if (rest[0] !== '.' && rest[0] !== '[') return null;
  const parsed = scanner.scan(`†state${rest}`);
  if (parsed.kind !== 'expression' || parsed.expression.op !== null) return null;
  return { root: 'item', segments: parsed.expression.refs[0]!.segments, text };
}

/** The value `ref` names for element `item` at position `index`; undefined when there is none. */
export function resolveLoopReference(ref: LoopReference, item: unknown, index: number): unknown {
  if (ref.root === 'index') return index;
  const first = firstSelector(ref.segments);
  if (first < 0) return getAtPath(item, ref.segments as PathSegment[]);
  const container = getAtPath(item, ref.segments.slice(0, first) as PathSegment[]);
  const tail = ref.segments.slice(first);
  return canSelectFrom(container, tail[0] as Wildcard) ? selectFrom(container, tail) : undefined;
}
