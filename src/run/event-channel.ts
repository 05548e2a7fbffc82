/** Events as an async iterator: a buffer with a head index (no Array.shift) and one waiter. */
export class EventChannel<T> implements AsyncIterable<T> {
  #buffer: T[] = [];
  #head = 0;
  #closed = false;
  #wake: (() => void) | null = null;

  push(item: T): void {
    if (this.#closed) return;
    this.#buffer.push(item);
    this.#wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.#head < this.#buffer.length) {
        const item = this.#buffer[this.#head]!;
        this.#buffer[this.#head++] = undefined as T; // let it be collected
        yield item;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = () => {
          this.#wake = null;
          resolve();
        };
      });
    }
  }
}
