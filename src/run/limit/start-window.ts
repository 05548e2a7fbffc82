/**
 * The last `limit` starts of a rate-limited group, read on one clock (performance.now) right
 * before each tool runs. p-queue's strict mode counts starts on Date.now() (whole
 * milliseconds) when it dequeues a task, a little before the task runs; this check makes the
 * promise exact for the starts a tool sees: no more than `limit` in any window of `intervalMs`.
 * It almost never waits (p-queue has waited already), and when it does it sets one timer for
 * the time left, never a polling loop.
 */
export class StartWindow {
  /** A ring of the last `limit` start times, oldest at `#next` once full. */
  readonly #starts: Float64Array;
  readonly #intervalMs: number;
  #next = 0;
  #count = 0;

  constructor(options: { readonly limit: number; readonly intervalMs: number }) {
    this.#starts = new Float64Array(options.limit);
    this.#intervalMs = options.intervalMs;
  }

  /**
   * 0 when a start may happen now (and it is counted as happening), else the milliseconds
   * until the oldest counted start leaves the window.
   */
  take(): number {
    const now = performance.now();
    const limit = this.#starts.length;
    if (this.#count === limit) {
      const left = this.#starts[this.#next]! + this.#intervalMs - now;
      if (left > 0) return left;
    } else this.#count++;
    this.#starts[this.#next] = now;
    this.#next = (this.#next + 1) % limit;
    return 0;
  }

  /** Runs `task` once a start is allowed: at once (synchronously) in the usual case. */
  run<T>(task: () => T | PromiseLike<T>): T | PromiseLike<T> {
    const left = this.take();
    if (left === 0) return task();
    return new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(left))).then(() => this.run(task));
  }
}
