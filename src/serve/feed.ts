/**
 * `GET /api/events`: one stream that says when something a page shows changed (a run's status,
 * the pending approvals, an agent), so a page keeps one connection open instead of one per run
 * (browsers allow six per server) and never polls.
 */
import type { SseStream } from './sse.js';

export type FeedTopic = 'runs' | 'approvals' | 'agents';

export class Feed {
  readonly #streams = new Set<SseStream>();
  #seq = 0;

  add(stream: SseStream): void {
    this.#streams.add(stream);
    stream.send('hello', '{}');
  }

  remove(stream: SseStream): void {
    this.#streams.delete(stream);
  }

  /** Tells every listener that `topic` changed: it reads it again. */
  notify(topic: FeedTopic): void {
    const text = JSON.stringify({ topic });
    const seq = this.#seq++;
    for (const stream of this.#streams) stream.send('change', text, seq);
  }

  close(): void {
    for (const stream of [...this.#streams]) stream.close();
  }
}
