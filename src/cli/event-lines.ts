/** `plan run` off a terminal: one plain line per event, for logs and pipes. */
import type { RunEvent } from '../run/types.js';
import { formatDuration, oneLine } from './format.js';
import type { OutputStream } from './io.js';

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

export class PlainView implements RunView {
  constructor(private readonly stream: OutputStream) {}

  onEvent(event: RunEvent): void {
    this.stream.write(`${formatEventLine(event)}\n`);
  }

  pause(): void {}
  resume(): void {}
  stop(): void {}
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
      if (event.error) line += `: ${describeError(event.error)}`;
      return line;
    }
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
