/**
 * The live view of `plan run` on a terminal: finished calls scroll up as permanent lines, and
 * below them a small region (running calls, calls awaiting approval, a footer) is redrawn in
 * place with ANSI cursor movement. Redraws are throttled by one pending timer, which also
 * animates the spinner while anything runs; nothing polls.
 */
import type { CallStatus, RunEvent } from '../../run/types.js';
import { formatDuration, oneLine, paint, type Style } from './format.js';
import type { OutputStream } from '../io.js';
import { describeError, type RunView } from './event-lines.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

type CallEnd = Extract<RunEvent, { type: 'call:end' }>;

/** One call on the board: running, waiting for a retry or a person, or ended. */
export interface CallRow {
  readonly id: string;
  readonly tool: string;
  phase: 'running' | 'retrying' | 'approval' | 'ended';
  /** When the current phase began (ms since the epoch, from the event's `at`). */
  since: number;
  attempt: number;
  /** For `retrying`: the wait before the next attempt, and why. */
  retry?: { readonly delayMs: number; readonly message: string };
  end?: CallEnd;
}

/** What the run looks like so far, built from its events alone. */
export class CallBoard {
  readonly #tools: ReadonlyMap<string, string>;
  /** Calls running or waiting, in the order they appeared. */
  readonly #active = new Map<string, CallRow>();
  /** Ended calls not yet taken (printed) by the view. */
  #ended: CallRow[] = [];
  readonly counts = new Map<CallStatus, number>();
  total = 0;
  done = 0;
  startedAt: number | null = null;

  /** @param calls The plan's calls, so approval requests (which carry only the id) show their tool. */
  constructor(calls: Iterable<{ readonly id: string; readonly tool: string }> = []) {
    this.#tools = new Map([...calls].map((c) => [c.id, c.tool]));
  }

  apply(event: RunEvent): void {
    const at = Date.parse(event.at);
    switch (event.type) {
      case 'run:start':
        this.total = event.calls;
        this.startedAt = at;
        return;
      case 'approval:requested':
        if (event.kind === 'call' && event.call !== undefined)
          this.#row(event.call, this.#tools.get(event.call) ?? '?', 'approval', at);
        return;
      case 'call:start':
        this.#row(event.call, event.tool, 'running', at).attempt = event.attempt;
        return;
      case 'call:retry': {
        const row = this.#row(event.call, event.tool, 'retrying', at);
        row.retry = { delayMs: event.delayMs, message: event.error.message };
        return;
      }
      case 'call:end': {
        const row = this.#active.get(event.call) ?? {
          id: event.call,
          tool: event.tool,
          phase: 'ended',
          since: at,
          attempt: event.attempts,
        };
        this.#active.delete(event.call);
        row.phase = 'ended';
        row.end = event;
        this.#ended.push(row);
        this.done++;
        this.counts.set(event.status, (this.counts.get(event.status) ?? 0) + 1);
        return;
      }
      default:
        return;
    }
  }

  #row(id: string, tool: string, phase: CallRow['phase'], at: number): CallRow {
    let row = this.#active.get(id);
    if (!row) {
      row = { id, tool, phase, since: at, attempt: 0 };
      this.#active.set(id, row);
    }
    row.phase = phase;
    row.since = at;
    return row;
  }

  /** The calls that ended since the last call, in the order they ended. */
  takeEnded(): CallRow[] {
    const ended = this.#ended;
    this.#ended = [];
    return ended;
  }

  get active(): readonly CallRow[] {
    return [...this.#active.values()];
  }

  get hasActive(): boolean {
    return this.#active.size > 0;
  }
}

export interface RowFormat {
  readonly color: boolean;
  /** Columns for the call id and the tool name, so rows line up. */
  readonly idWidth: number;
  readonly toolWidth: number;
}

export interface FrameFormat extends RowFormat {
  /** Now, for elapsed times. */
  readonly now: number;
  /** Which spinner frame to show. */
  readonly frame: number;
}

/** The permanent line of an ended call: ✓ with its duration, ✗ with its error, or its state. */
export function formatEndedRow(row: CallRow, format: RowFormat): string {
  const end = row.end!;
  const c = format.color;
  const took = end.durationMs === null ? '' : `  ${formatDuration(end.durationMs)}`;
  const branch = end.branch === null ? '' : `  branch ${end.branch}`;
  const head = (mark: string, style: Style) => `${paint(mark, c, style)} ${names(row, format)}`;
  switch (end.status) {
    case 'succeeded':
      // A reused call ran in an earlier turn: it took no time now, and says so.
      if (end.reused)
        return `${head('✓', 'green')}${branch}  ${paint('reused (ran in an earlier turn)', c, 'dim')}`;
      return `${head('✓', 'green')}${paint(took, c, 'dim')}${branch}`;
    case 'failed': {
      if (end.handled) {
        const why = end.error ? `: ${describeError(end.error)}` : '';
        return `${head('✗', 'yellow')}${paint(took, c, 'dim')}  handled${branch}${why}`;
      }
      const why = end.error ? `  ${paint(describeError(end.error), c, 'red')}` : '';
      return `${head('✗', 'red')}${paint(took, c, 'dim')}${why}`;
    }
    case 'cancelled': {
      const after = end.durationMs === null ? '' : ` after ${formatDuration(end.durationMs)}`;
      return `${head('-', 'yellow')}  ${paint(`cancelled${after}`, c, 'yellow')}`;
    }
    case 'rejected': {
      const why = end.error ? `: ${describeError(end.error)}` : '';
      return `${head('-', 'yellow')}  ${paint('rejected', c, 'yellow')}${why}`;
    }
    case 'upstream_failed': {
      // Held back by program order: the error says which call it follows.
      const why = end.error ? `: ${describeError(end.error)}` : '';
      return `${head('-', 'red')}  ${paint(`upstream failed${why}`, c, 'red')}`;
    }
    case 'skipped':
      return `${head('-', 'dim')}  ${paint('skipped', c, 'dim')}`;
  }
}

/** The line of a call still in progress: a spinner and its time so far, or what it waits for. */
export function formatActiveRow(row: CallRow, format: FrameFormat): string {
  const c = format.color;
  const elapsed = formatDuration(Math.max(0, format.now - row.since));
  if (row.phase === 'approval')
    return `${paint('?', c, 'cyan')} ${names(row, format)}  ${paint('awaiting approval', c, 'cyan')}`;
  if (row.phase === 'retrying') {
    const retry = row.retry!;
    const left = Math.max(0, retry.delayMs - (format.now - row.since));
    return `${paint('↻', c, 'yellow')} ${names(row, format)}  attempt ${row.attempt} failed, retrying in ${formatDuration(left)}: ${oneLine(retry.message)}`;
  }
  const spinner = SPINNER[format.frame % SPINNER.length]!;
  const attempt = row.attempt > 1 ? `  attempt ${row.attempt}` : '';
  return `${paint(spinner, c, 'cyan')} ${names(row, format)}  ${paint(elapsed, c, 'dim')}${attempt}`;
}

/** `3/10 done · 2 running · 1 awaiting approval · 1.40s` */
export function formatFooter(board: CallBoard, format: FrameFormat): string {
  let running = 0;
  let waiting = 0;
  for (const row of board.active) {
    if (row.phase === 'approval') waiting++;
    else running++;
  }
  const parts = [`${board.done}/${board.total} done`];
  if (running > 0) parts.push(`${running} running`);
  if (waiting > 0) parts.push(`${waiting} awaiting approval`);
  if (board.startedAt !== null) parts.push(formatDuration(Math.max(0, format.now - board.startedAt)));
  return paint(parts.join(' · '), format.color, 'dim');
}

/**
 * The region redrawn in place: one line per active call (at most `maxLines - 1` of them, then
 * a `… n more` line), and the footer last.
 */
export function formatRegion(
  board: CallBoard,
  format: FrameFormat & { readonly maxLines: number },
): string[] {
  const active = board.active;
  const room = Math.max(1, format.maxLines - 1);
  const shown = active.length > room ? active.slice(0, room - 1) : active;
  const lines = shown.map((row) => formatActiveRow(row, format));
  if (shown.length < active.length)
    lines.push(paint(`… ${active.length - shown.length} more`, format.color, 'dim'));
  lines.push(formatFooter(board, format));
  return lines;
}

export interface LiveViewOptions {
  /** A terminal: `columns` and `rows` bound the redrawn region when known. */
  readonly stream: OutputStream & { readonly columns?: number; readonly rows?: number };
  readonly color: boolean;
  /** The plan's calls: their ids and tools set the column widths. */
  readonly calls: readonly { readonly id: string; readonly tool: string }[];
  /**
   * The clock.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Least time between two redraws; also the spinner's speed.
   * @default 80
   */
  readonly frameMs?: number;
}

const MAX_NAME_WIDTH = 24;

export class LiveView implements RunView {
  readonly #board: CallBoard;
  readonly #stream: LiveViewOptions['stream'];
  readonly #format: RowFormat;
  readonly #now: () => number;
  readonly #frameMs: number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Lines of the region on screen now, all ended by a newline: the cursor is below them. */
  #drawn = 0;
  #paused = false;
  #stopped = false;

  constructor(options: LiveViewOptions) {
    this.#board = new CallBoard(options.calls);
    this.#stream = options.stream;
    this.#now = options.now ?? Date.now;
    this.#frameMs = options.frameMs ?? 80;
    const widest = (key: 'id' | 'tool') =>
      Math.min(
        MAX_NAME_WIDTH,
        options.calls.reduce((w, c) => Math.max(w, c[key].length), 1),
      );
    this.#format = { color: options.color, idWidth: widest('id'), toolWidth: widest('tool') };
  }

  onEvent(event: RunEvent): void {
    this.#board.apply(event);
    this.#schedule();
  }

  /** Draws what is pending, then takes the region off the screen so a prompt can use it. */
  pause(): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    this.#draw(false);
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#schedule();
  }

  /** Prints every ended call and removes the region: what follows (the summary) starts clean. */
  stop(): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    // Ctrl-C at a prompt ends the run with the view still paused: its ended calls still show.
    this.#paused = false;
    this.#draw(false);
    this.#stopped = true;
  }

  #schedule(): void {
    if (this.#timer !== null || this.#paused || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#draw(true);
      // The spinner and the elapsed times move while anything runs: one more frame.
      if (this.#board.hasActive) this.#schedule();
    }, this.#frameMs);
    // A frame never keeps the process alive on its own.
    this.#timer.unref?.();
  }

  #cancelTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One write: back to the region's top, clear below, ended lines, then the region again. */
  #draw(region: boolean): void {
    if (this.#paused || this.#stopped) return;
    let out = this.#drawn > 0 ? `\u001b[${this.#drawn}A\r\u001b[J` : '';
    this.#drawn = 0;
    for (const row of this.#board.takeEnded()) out += `${formatEndedRow(row, this.#format)}\n`;
    if (region) {
      // A pseudo-terminal without a size says 0 columns and 0 rows: read that as unknown.
      const width = Math.max(20, (this.#stream.columns || 80) - 1);
      const now = this.#now();
      const lines = formatRegion(this.#board, {
        ...this.#format,
        now,
        frame: Math.floor(now / this.#frameMs),
        maxLines: Math.max(2, (this.#stream.rows || 24) - 2),
      });
      // A line wider than the terminal wraps, and the cursor would no longer go back to the top.
      for (const line of lines) out += `${truncate(line, width)}\n`;
      this.#drawn = lines.length;
    }
    if (out !== '') this.#stream.write(out);
  }
}

function names(row: CallRow, format: RowFormat): string {
  const id = fit(row.id, format.idWidth).padEnd(format.idWidth);
  const tool = fit(row.tool, format.toolWidth).padEnd(format.toolWidth);
  return `${paint(id, format.color, 'bold')}  ${paint(tool, format.color, 'dim')}`;
}

function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

// eslint-disable-next-line no-control-regex -- skipping ANSI escapes is the point
const ESCAPE = /^\u001b\[[0-9;]*m/;

/**
 * The line cut to `width` terminal columns (ANSI escapes take none, East Asian wide characters
 * and emoji take two), with a closing reset when the cut falls inside a colored part.
 */
export function truncate(line: string, width: number): string {
  let out = '';
  let used = 0;
  let styled = false;
  for (let i = 0; i < line.length;) {
    const escape = line[i] === '\u001b' ? ESCAPE.exec(line.slice(i)) : null;
    if (escape) {
      out += escape[0];
      styled = escape[0] !== '\u001b[0m';
      i += escape[0].length;
      continue;
    }
    const code = line.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    const w = columnsOf(code);
    if (used + w > width) return styled ? `${out}\u001b[0m` : out;
    out += char;
    used += w;
    i += char.length;
  }
  return out;
}

function columnsOf(code: number): number {
  if (
    code < 0x20 ||
    (code >= 0x300 && code <= 0x36f) ||
    code === 0x200d ||
    (code >= 0xfe00 && code <= 0xfe0f)
  )
    return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}
