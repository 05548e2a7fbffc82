/**
 * What a run writes its journal through, and the journal of what runs inside a call. A run's
 * own journal is a Journal; a workflow call's sub-run writes through a SubJournal, which puts
 * each sub-call's `call:start` and `call:end` into the calling run's journal as `sub:start` and
 * `sub:end` under the call's path, and gives back, on resume, the sub-calls that completed: the
 * sub-run replays them (their outputs rebuild its state) and runs the rest. A `_forEach` call
 * journals its elements through JournalParts. Both write only into a journal of version 3 or 4
 * (see journal-parts); with any other there are none, and inner work runs again whole on resume.
 */
import type { JsonObject } from '../../language/document.js';
import type { CallError, RunEvent, StaleJournalLock } from '../types.js';
import type { EarlierResults } from './journal-earlier-results.js';
import type { CallEndEvent } from './journal-format.js';
import {
  isReusableElement,
  MAX_PART_PATH,
  type PartEnd,
  partKey,
  type PartPath,
  type PartRecord,
} from './journal-parts.js';

/** What a Runner needs of its journal. */
export interface RunJournal {
  append(event: RunEvent): void;
  /** Appends a `call:end` that the next `sync` writes (see Journal.hold). */
  hold(event: RunEvent): void;
  /** Appends a call's first `call:start` ahead of its start (see Journal.appendAhead). */
  appendAhead(event: Extract<RunEvent, { readonly type: 'call:start' }>): void;
  /** True when starts may be appended ahead (see Journal.writesAhead). */
  readonly writesAhead: boolean;
  sync(): void;
  resultFor(call: string, args: JsonObject): CallEndEvent | undefined;
  resultTooLong(call: string, tool: string, output: unknown, size: number): string | undefined;
  close(): void;
  readonly earlier: EarlierResults | undefined;
  readonly staleLocks: readonly StaleJournalLock[];
  /** Where the run's elements and workflow sub-calls are journaled; undefined when nowhere. */
  readonly parts: JournalParts | undefined;
}

/** The Journal as parts write into it. */
export interface PartSink {
  appendPart(record: PartRecord): void;
  readonly partEnds: ReadonlyMap<string, PartEnd>;
  resultTooLong(
    call: string,
    tool: string,
    output: unknown,
    size: number,
    around: number,
  ): string | undefined;
}

/** The elements and sub-runs of one run's calls, under the path of that run (empty for the plan's own). */
export class JournalParts {
  constructor(
    private readonly sink: PartSink,
    readonly prefix: PartPath,
  ) {}

  /** Before element `index` of `call` (of `count` elements) runs. */
  elementStarted(call: string, index: number, count: number): void {
    this.sink.appendPart({
      type: 'element:start',
      at: new Date().toISOString(),
      path: [...this.prefix, call, index],
      count,
    });
  }

  /** Once the element ended, before anyone hears of it. */
  elementEnded(
    call: string,
    index: number,
    count: number,
    ended: {
      readonly status: 'succeeded' | 'failed';
      readonly error: CallError | null;
      readonly output?: unknown;
    },
  ): void {
    const { status, error } = ended;
    const path = [...this.prefix, call, index];
    const at = new Date().toISOString();
    this.sink.appendPart(
      status === 'succeeded'
        ? { type: 'element:end', at, path, count, status, error, output: ended.output }
        : { type: 'element:end', at, path, count, status, error },
    );
  }

  /**
   * The output element `index` of `call` returned in an earlier run, when it succeeded there in
   * a call of as many elements; undefined when it must run.
   */
  elementOutput(call: string, index: number, count: number): { readonly output: unknown } | undefined {
    const end = this.sink.partEnds.get(partKey([...this.prefix, call, index]));
    if (end?.type !== 'element:end' || end.count !== count || !isReusableElement(end)) return undefined;
    return { output: end.output };
  }

  /**
   * The journal of the sub-run a workflow call runs: `at` is the call's id, and the element's
   * index when the call is a `_forEach`. Undefined past MAX_PART_PATH (never, for workflows that
   * nest as deep as they may): that sub-run is not journaled and runs again whole.
   */
  within(at: PartPath): SubJournal | undefined {
    const prefix = [...this.prefix, ...at];
    if (prefix.length + 2 > MAX_PART_PATH) return undefined;
    return new SubJournal(this.sink, prefix);
  }
}

/** A workflow call's sub-run's journal: its calls' records inside the calling run's journal. */
export class SubJournal implements RunJournal {
  readonly earlier = undefined;
  readonly staleLocks: readonly StaleJournalLock[] = [];
  readonly parts: JournalParts;
  /** What the path and the wrapping add to a `call:end` line. */
  readonly #around: number;

  constructor(
    private readonly sink: PartSink,
    private readonly prefix: PartPath,
  ) {
    this.parts = new JournalParts(sink, prefix);
    this.#around = partKey(prefix).length + 64;
  }

  append(event: RunEvent): void {
    if (event.type === 'call:start') {
      this.sink.appendPart({ type: 'sub:start', at: event.at, path: [...this.prefix, event.call], event });
    } else if (event.type === 'call:end') {
      this.sink.appendPart({ type: 'sub:end', at: event.at, path: [...this.prefix, event.call], event });
    }
    // The sub-run's other events are not read by a resume.
  }

  /** A sub-call's records are written as they are appended: none waits. */
  readonly writesAhead = false;

  hold(event: RunEvent): void {
    this.append(event);
  }

  appendAhead(event: Extract<RunEvent, { readonly type: 'call:start' }>): void {
    this.append(event);
  }

  /** A sub-call's end was synced as it was appended. */
  sync(): void {}

  resultFor(call: string): CallEndEvent | undefined {
    const end = this.sink.partEnds.get(partKey([...this.prefix, call]));
    return end?.type === 'sub:end' ? end.event : undefined;
  }

  resultTooLong(call: string, tool: string, output: unknown, size: number): string | undefined {
    return this.sink.resultTooLong(call, tool, output, size, this.#around);
  }

  /** The calling run's journal closes with that run. */
  close(): void {}
}
