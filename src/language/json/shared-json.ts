/**
 * JSON text of values many calls share, made once. A value one call writes and three hundred
 * read reaches each of their arguments as the same frozen object (the run hands out what calls
 * read frozen, whole: see run/state), and the journal, `--events` and the report each wrote
 * every call's arguments with its own JSON.stringify: a 2.7 MB value read by 300 calls was
 * serialised 300 times by each (1.7 GB peak, 20-30 s). Here the text of a frozen object is
 * kept beside it (a WeakMap: it goes with the object), and an arguments object, which is the
 * call's own, is written member by member around its members' kept texts.
 *
 * A frozen object is taken to be frozen all the way down, as every value the run hands out is:
 * a caller that freezes only the top of an object and then changes what is below it would see
 * the old text. The output is exactly JSON.stringify's (same keys, same order, same spacing).
 */

/** Compact JSON text, by frozen object. */
const compact = new WeakMap<object, string>();
/** Pretty (2-space) JSON text and its count of line breaks, by frozen object. */
const pretty = new WeakMap<object, { readonly text: string; readonly breaks: number }>();

/** JSON.stringify(value), made once per frozen object. */
export function sharedJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = compact.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    compact.set(value, text);
  }
  return text;
}

/**
 * JSON.stringify(event) for a run event: its `args` (a call's arguments, when it has them) is
 * written by {@link argumentsJson}, every other member as JSON.stringify writes it.
 */
export function eventJson(event: object): string {
  // Most events carry no arguments, or none another call could share: one JSON.stringify.
  if (!holdsShared((event as { args?: unknown }).args)) return JSON.stringify(event);
  return membersJson(event, (value, key) =>
    key === 'args' && value !== null && typeof value === 'object' && !Array.isArray(value)
      ? argumentsJson(value)
      : JSON.stringify(value),
  );
}

/** JSON.stringify(args) for a call's arguments: each member through {@link sharedJson}. */
export function argumentsJson(args: object): string {
  return membersJson(args, sharedJson);
}

/** True for an object with a frozen object among its members: a value the run shares. */
function holdsShared(args: unknown): boolean {
  if (args === null || typeof args !== 'object') return false;
  for (const key in args) {
    const value: unknown = (args as Record<string, unknown>)[key];
    if (value !== null && typeof value === 'object' && Object.isFrozen(value)) return true;
  }
  return false;
}

/** A plain object's JSON text, each member's written by `write` (undefined drops it, as JSON does). */
function membersJson(record: object, write: (value: unknown, key: string) => string | undefined): string {
  let out = '{';
  for (const key of Object.keys(record)) {
    const text = write((record as Record<string, unknown>)[key], key);
    if (text === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

/**
 * The first `max` characters of JSON.stringify(value, null, 2) and that text's whole length,
 * without making the whole text when the value is an object whose members are shared (a call's
 * arguments) or is shared itself: their pretty texts are made once and kept.
 */
export function prettyJsonPreview(
  value: unknown,
  max: number,
): { readonly head: string; readonly length: number } {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || Array.isArray(value)) {
    const { text } = prettyOf(value);
    return { head: text.length <= max ? text : text.slice(0, max), length: text.length };
  }
  // A member at depth 1 is its own pretty text with every line break followed by two more spaces.
  let head = '{';
  let length = 1;
  let members = 0;
  for (const key of Object.keys(value)) {
    const { text, breaks } = prettyOf((value as Record<string, unknown>)[key]);
    if (text === 'undefined') continue;
    const lead = `${members > 0 ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    members++;
    length += lead.length + text.length + 2 * breaks;
    if (head.length < max) {
      head += lead;
      if (head.length < max) head += text.slice(0, max - head.length).replaceAll('\n', '\n  ');
    }
  }
  const close = members > 0 ? '\n}' : '}';
  length += close.length;
  if (head.length < max) head += close;
  return { head: head.length <= max ? head : head.slice(0, max), length };
}

/** JSON.stringify(value, null, 2) ('undefined' when it gives nothing), kept for a frozen object. */
function prettyOf(value: unknown): { readonly text: string; readonly breaks: number } {
  const frozen = value !== null && typeof value === 'object' && Object.isFrozen(value);
  const kept = frozen ? pretty.get(value) : undefined;
  if (kept) return kept;
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  let breaks = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks++;
  const made = { text, breaks };
  if (frozen) pretty.set(value, made);
  return made;
}
