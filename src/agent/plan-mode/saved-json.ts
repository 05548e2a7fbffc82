/**
 * Saved agent state (a todo list, a plan-mode snapshot) comes back from disk, a database or
 * another process: untrusted input. Before any rule of its own walks it, it is read here as
 * bounded JSON (text length, then depth, size and keys by checkJson with the default limits),
 * so a value nested 100,000 deep or with a million keys is one refusal, not a crash or a stall.
 */
import { checkJson } from '../../language/json/index.js';
import { DEFAULT_LIMITS } from '../../language/limits.js';

export interface SavedJsonOptions {
  /** Who reads, for messages: `TodoList.from`. */
  readonly where: string;
  /** What the value is called in messages: `todos`, `snapshot`. */
  readonly name: string;
  /** What a valid value looks like, for messages. */
  readonly expected: string;
  /**
   * The longest JSON text parsed, in characters, and the largest JSON size of a value: past it
   * nothing valid can fit, so the text is refused unread.
   */
  readonly maxTextLength: number;
}

/** Longest place shown in a message: keys are the writer's, and may be megabytes long. */
const MAX_PLACE = 200;

/**
 * The value, parsed when it is JSON text, after checking it is JSON data within the default
 * limits (and, as text, within `maxTextLength`).
 * @throws {TypeError} naming the place and what is wrong there.
 */
export function readSavedJson(json: unknown, options: SavedJsonOptions): unknown {
  const { where, name, expected, maxTextLength } = options;
  let value = json;
  if (typeof json === 'string') {
    if (json.length > maxTextLength) {
      throw new TypeError(
        `${where}: the text has ${json.length} characters; a valid ${name} has at most ${maxTextLength}`,
      );
    }
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new TypeError(
        `${where}: the text is not JSON (${(error as Error).message}); expected ${expected}`,
      );
    }
  }
  // A value handed over in process is held to the same size as text would be.
  const limits = { ...DEFAULT_LIMITS, maxTextLength: Math.min(DEFAULT_LIMITS.maxTextLength, maxTextLength) };
  const checked = checkJson(value, { limits });
  if ('problem' in checked) {
    const { code, pointer, message, hint } = checked.problem;
    // The hint of a limit is about raising it; no limit here is the user's to raise.
    throw new TypeError(
      `${where}: ${placeOf(name, pointer)} ${message}; ${code === 'LIMIT' ? `expected ${expected}` : hint}`,
    );
  }
  return value;
}

/** `todos` and `/0/content` as `todos[0].content`, the way the rules name places, cut short. */
export function placeOf(name: string, pointer: string): string {
  let place = name;
  if (pointer !== '') {
    for (const token of pointer.slice(1).split('/')) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      place += /^(?:0|[1-9]\d*)$/.test(key) ? `[${key}]` : `.${key}`;
      if (place.length > MAX_PLACE) break;
    }
  }
  return place.length > MAX_PLACE ? `${place.slice(0, MAX_PLACE)}…` : place;
}
