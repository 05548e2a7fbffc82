/**
 * bench/latency-timeline: when a streamed model reply says what, and the best any method could
 * do with it. Pure arithmetic, shared by the loopback model server (which sends on this
 * schedule) and the bound (which is computed from it), so the two cannot disagree.
 *
 * A reply costs characters: its first chunk leaves `firstTokenMs` after the request, then its
 * characters flow at `rate` tokens per second, a token being 4 characters. The server sends a
 * chunk every `chunkChars` characters (the last one when the reply ends), so a character
 * reaches the client with the chunk that carries it.
 */

/** How fast the played model writes. */
export interface ModelPace {
  /** From the request to the first chunk, in ms. */
  readonly firstTokenMs: number;
  /** Tokens per second once it writes. */
  readonly tokensPerSecond: number;
  /** Characters per chunk (the last chunk of a reply may be shorter). */
  readonly chunkChars: number;
}

/** Characters per token, as the model's pace counts them. */
export const CHARS_PER_TOKEN = 4;

/** ms after the request at which the chunk ending at character position `chars` leaves. */
export function msAtChars(pace: ModelPace, chars: number): number {
  return pace.firstTokenMs + (1000 * chars) / (CHARS_PER_TOKEN * pace.tokensPerSecond);
}

/**
 * The character positions at which chunks leave for a reply of `total` characters: every
 * `chunkChars`, and `total` itself (a reply of 0 characters still sends one, empty, chunk).
 */
export function chunkEnds(total: number, chunkChars: number): number[] {
  const ends: number[] = [];
  for (let at = chunkChars; at < total; at += chunkChars) ends.push(at);
  ends.push(total);
  return ends;
}

/** The position of the chunk that carries character position `chars` (1-based end) of a reply of `total`. */
export function chunkCarrying(chars: number, total: number, chunkChars: number): number {
  return Math.min(total, Math.ceil(chars / chunkChars) * chunkChars);
}

/** One call of a plan, for the bound: where its text ends in the reply, what it reads, how long it takes. */
export interface BoundCall {
  /** Character position (in the whole reply) just past the call's closing `}`. */
  readonly closesAt: number;
  /** Indices of the calls whose end it waits for (what it reads, and `_after`). */
  readonly after: readonly number[];
  /** The tool's latency, in ms. */
  readonly latencyMs: number;
}

/** The bound of one plan, and its parts. */
export interface Bound {
  /** When each call could start at the earliest, ms after the request. */
  readonly startsMs: readonly number[];
  /** When the plan is done at the earliest: the last call's end, and not before the reply ends. */
  readonly planEndMs: number;
  /** The final answer's turn, which every method pays after its last call. */
  readonly finalTurnMs: number;
  /** planEndMs + finalTurnMs. */
  readonly totalMs: number;
}

/**
 * The bound of a plan written as one reply of `replyChars` characters: each call starts at the
 * later of the moment its text has reached the client (the chunk carrying its closing `}`) and
 * the end of every call it waits for; the plan ends when its last call ends (and not before the
 * reply has ended: the next turn is asked for only then); the final answer turn
 * (`finalChars` characters at the same pace) comes on top. `calls` must be in an order where
 * every call comes after those it waits for (a compiled plan's `order`).
 */
export function boundOf(
  calls: readonly BoundCall[],
  order: readonly number[],
  replyChars: number,
  finalChars: number,
  pace: ModelPace,
): Bound {
  const starts = new Array<number>(calls.length).fill(0);
  const ends = new Float64Array(calls.length);
  let planEndMs = msAtChars(pace, replyChars);
  for (const i of order) {
    const call = calls[i]!;
    let start = msAtChars(pace, chunkCarrying(call.closesAt, replyChars, pace.chunkChars));
    for (const from of call.after) start = Math.max(start, ends[from]!);
    starts[i] = start;
    ends[i] = start + call.latencyMs;
    planEndMs = Math.max(planEndMs, ends[i]!);
  }
  const finalTurnMs = msAtChars(pace, finalChars);
  return { startsMs: starts, planEndMs, finalTurnMs, totalMs: planEndMs + finalTurnMs };
}

/**
 * {@link boundOf} for a method that starts no call before the whole reply has arrived (a whole
 * plan, then its run): what dispatching calls while the model writes can win is the gap between
 * the two.
 */
export function wholeReplyBoundOf(
  calls: readonly BoundCall[],
  order: readonly number[],
  replyChars: number,
  finalChars: number,
  pace: ModelPace,
): Bound {
  const waiting = calls.map((call) => ({ ...call, closesAt: replyChars }));
  return boundOf(waiting, order, replyChars, finalChars, pace);
}

/**
 * The plan's calls split into the turns of parallel function calling: turn k holds the calls
 * whose longest chain of calls they wait for is k long (so every call's inputs exist once the
 * turns before it ran). In `order`, so each call's level is known before the calls that read it.
 */
export function levelsOf(after: readonly (readonly number[])[], order: readonly number[]): number[][] {
  const level = new Int32Array(after.length);
  const levels: number[][] = [];
  for (const i of order) {
    for (const from of after[i]!) level[i] = Math.max(level[i]!, level[from]! + 1);
    (levels[level[i]!] ??= []).push(i);
  }
  // Within a turn, in the plan's own order, as the model would list them.
  for (const turn of levels) turn.sort((a, b) => a - b);
  return levels;
}
