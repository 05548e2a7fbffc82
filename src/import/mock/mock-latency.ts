/**
 * The latency a mock call waits: drawn from (seed, tool, arguments, n), where n counts the
 * calls of that tool with those same arguments on one set of mocks (1 for the first). A hash,
 * not a generator with state, so the draw does not depend on the order calls happen in: two
 * runs of one plan wait the same for each call, however the scheduler interleaves them.
 */
import { mixSeed } from '../../simulate/sample-outputs.js';

/** How long a mock call waits before it answers: a whole number of ms from minMs to maxMs. */
export interface MockLatency {
  /** Shortest wait, in ms. */
  readonly minMs: number;
  /** Longest wait, in ms (at least minMs). */
  readonly maxMs: number;
}

/** What one draw of {@link mockLatencyMs} depends on. */
export interface LatencyDraw {
  readonly seed: number;
  readonly tool: string;
  /** The arguments as canonical JSON (`canonicalJson`). */
  readonly args: string;
  /** Which call of the tool with these arguments this is: 1 for the first. */
  readonly nth: number;
  readonly latency: MockLatency;
}

/** The wait of one mock call, in ms: uniform over `[minMs, maxMs]`, the same for the same draw. */
export function mockLatencyMs(draw: LatencyDraw): number {
  const { minMs, maxMs } = draw.latency;
  const hash = finalize(mixSeed(draw.seed, `latency\n${draw.tool}\n${draw.args}\n${draw.nth}`));
  return minMs + Math.floor((hash / 2 ** 32) * (maxMs - minMs + 1));
}

/** @throws {TypeError} unless `latency` is `{minMs, maxMs}` of whole numbers, 0 <= minMs <= maxMs. */
export function checkLatency(latency: unknown): MockLatency {
  const { minMs, maxMs } = (latency ?? {}) as Partial<MockLatency>;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (latency === null || typeof latency !== 'object' || !whole(minMs) || !whole(maxMs) || minMs > maxMs) {
    throw new TypeError(
      `Expected latency to be {minMs, maxMs}, whole numbers of ms with 0 <= minMs <= maxMs, got ${safeJson(latency)}`,
    );
  }
  return { minMs, maxMs };
}

/**
 * MurmurHash3's 32-bit finalizer: FNV-1a alone leaves its high bits poorly mixed for inputs
 * that differ in their last characters (n = 1, 2, 3), and the draw reads the high bits.
 */
function finalize(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
