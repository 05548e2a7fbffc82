/**
 * `plan run` off a terminal: quiet but for a `still running` line when nothing happens for a
 * while (the summary follows the run), or with `--events` one plain line per event.
 */
import type { RunEvent } from '../../run/types.js';
import { MAX_DELAY_MS } from '../../tools/tool-values.js';
import { formatDuration, oneLine } from './format.js';
import type { OutputStream } from '../io.js';

/** Where `plan run` shows progress: the live view, plain lines, or nothing (`--json`). */
export interface RunView {
  onEvent(event: RunEvent): void;
  /** A prompt is about to use the terminal. */
  pause(): void;
  /** The prompt is answered. */
  resume(): void;
  /** The run has ended: print what is pending; the summary follows. */
  stop(): void;
}

/** Shows nothing: `--json` keeps stderr for prompts and errors. */
export const QUIET_VIEW: RunView = { onEvent() {}, pause() {}, resume() {}, stop() {} };

export interface PlainViewOptions {
  /**
   * Print one line per event (`--events`); otherwise only the `still running` lines.
   * @default true
   */
  readonly events?: boolean;
  /**
   * Time without an event, in ms, before a `still running after ...` line names the calls
   * still running: off a terminal nothing else shows that a quiet run is alive.
   * @default 10000
   */
  readonly quietMs?: number;
  /**
   * Time between two `still running` lines while the run stays quiet, in ms.
   * @default 30000
   */
  readonly repeatMs?: number;
  /**
   * The clock.
   * @default Date.now
   */
  readonly now?: () => number;
}

/** Calls named in one `still running` line; more are counted. */
const MAX_NAMED = 5;

export class PlainView implements RunView {
  readonly #stream: OutputStream;
  readonly #quietMs: number;
  readonly #repeatMs: number;
  readonly #now: () => number;
  readonly #events: boolean;
  /** Calls started and not ended, with their tool and when they started (by #now). */
  readonly #running = new Map<string, { readonly tool: string; readonly since: number }>();
  #startedAt: number | null = null;
  /** When the next `still running` line is due, if nothing happens before. */
  #due = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** When #timer fires. */
  #timerAt = 0;
  #paused = false;
  #ended = false;

  constructor(stream: OutputStream, options: PlainViewOptions = {}) {
    this.#stream = stream;
    this.#quietMs = positiveMs(options.quietMs, 'quietMs', 10_000);
    this.#repeatMs = positiveMs(options.repeatMs, 'repeatMs', 30_000);
    this.#now = options.now ?? Date.now;
    if (options.events !== undefined && typeof options.events !== 'boolean')
      throw new TypeError(`PlainView: events must be true or false, not ${String(options.events)}`);
    this.#events = options.events ?? true;
  }

  onEvent(event: RunEvent): void {
    if (this.#events) this.#stream.write(`${formatEventLine(event)}\n`);
    if (this.#ended) return;
    const now = this.#now();
    if (event.type === 'run:start') this.#startedAt = now;
    else if (event.type === 'call:start') this.#running.set(event.call, { tool: event.tool, since: now });
    else if (event.type === 'call:end' || event.type === 'call:retry') this.#running.delete(event.call);
    else if (event.type === 'run:end') return this.stop();
    this.#quietFrom(now);
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#quietFrom(this.#now());
  }

  stop(): void {
    this.#ended = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /**
   * The next line is due a quiet period from now. One timer serves the whole run: when it
   * fires early it is pushed back then, since events come far faster than it fires; it is set
   * anew only when it would fire late (after a line it waits the longer repeat period).
   */
  #quietFrom(now: number): void {
    this.#due = now + this.#quietMs;
    if (this.#timer === null || this.#timerAt > this.#due) this.#schedule(this.#quietMs);
  }

  #schedule(ms: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timerAt = this.#now() + ms;
    this.#timer = setTimeout(() => this.#tick(), ms);
    // The line is a courtesy: it must never keep the process alive or delay its exit.
    this.#timer.unref?.();
  }

  #tick(): void {
    this.#timer = null;
    if (this.#ended) return;
    const now = this.#now();
    if (now < this.#due) return this.#schedule(this.#due - now);
    // A prompt owns the terminal while paused: the line waits for the next period.
    if (!this.#paused) this.#stream.write(`${this.#stillRunning(now)}\n`);
    this.#due = now + this.#repeatMs;
    this.#schedule(this.#repeatMs);
  }

  /** `still running after 40s: call a (slowTool) 40s, call b (other) 12s` */
  #stillRunning(now: number): string {
    const head = `still running after ${seconds(now - (this.#startedAt ?? now))}`;
    if (this.#running.size === 0) return `${head}: no call is running right now`;
    const named: string[] = [];
    for (const [call, { tool, since }] of this.#running) {
      if (named.length === MAX_NAMED) break;
      named.push(`call ${call} (${tool}) ${seconds(now - since)}`);
    }
    const more = this.#running.size - named.length;
    return `${head}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  }
}

/** Whole seconds under a minute (`40s`), then `2m 05s`: a heartbeat needs no fractions. */
function seconds(ms: number): string {
  return ms < 60_000 ? `${Math.floor(Math.max(0, ms) / 1000)}s` : formatDuration(ms);
}

function positiveMs(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_DELAY_MS)
    throw new TypeError(
      `PlainView: ${name} must be a whole number from 1 to ${MAX_DELAY_MS}, not ${String(value)}`,
    );
  return value;
}

/**
 * `call:start weather getWeather`, `call:end weather succeeded 12ms branch 1`,
 * `call:end pay failed 3ms: card declined (DECLINED)`: the event type, then its facts.
 */
export function formatEventLine(event: RunEvent): string {
  switch (event.type) {
    case 'run:start':
      return `run:start ${event.mode} ${event.calls} call${event.calls === 1 ? '' : 's'}`;
    case 'call:ready':
      return `call:ready ${event.call} ${event.tool}`;
    case 'call:start':
      return `call:start ${event.call} ${event.tool}${event.attempt > 1 ? ` attempt ${event.attempt}` : ''}`;
    case 'call:retry':
      return `call:retry ${event.call} ${event.tool} attempt ${event.attempt} failed, retrying in ${formatDuration(event.delayMs)}: ${describeError(event.error)}`;
    case 'call:end': {
      let line = `call:end ${event.call} ${event.status}`;
      if (event.durationMs !== null) line += ` ${formatDuration(event.durationMs)}`;
      if (event.branch !== null) line += ` branch ${event.branch}`;
      if (event.handled) line += ' handled';
      if (event.reused) line += ' reused';
      if (event.error) line += `: ${describeError(event.error)}`;
      return line;
    }
    case 'call:element':
      return `call:element ${event.call}[${event.index}] ${event.status}${event.error ? `: ${describeError(event.error)}` : ''}`;
    case 'state:write':
      return `state:write ${event.call} ${event.path}`;
    case 'approval:requested':
      return event.kind === 'plan' ? 'approval:requested plan' : `approval:requested call ${event.call}`;
    case 'run:end':
      return `run:end ${event.status}`;
  }
}

export function describeError(error: { readonly message: string; readonly code?: string }): string {
  return error.code ? `${oneLine(error.message)} (${error.code})` : oneLine(error.message);
}
