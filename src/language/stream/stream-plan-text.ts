/**
 * A stream of text chunks (a model's deltas, a pipe) as a stream of calls for startRun: each call
 * is yielded as the reader hands it out, and the iterable carries the whole text's parse (under a
 * symbol planmode keeps to itself) so that the run places its diagnostics in the text, with the
 * calls array's pointer before theirs and the text's own lines and columns.
 */
import { error, hasErrors } from '../diagnostics.js';
import {
  PlanTextReader,
  type PlanTextEnd,
  type PlanTextReaderOptions,
  type StreamedCall,
} from './plan-text-reader.js';

/** Where a streamed run finds the text its calls came from; not exported from the package. */
const PLAN_TEXT = Symbol('planmode.planText');

/** What {@link streamPlanText} returns. */
export interface StreamedPlanText {
  /** The calls, as each closes (then, at the end, those read whole): give it to `startRun`. */
  readonly calls: AsyncIterable<unknown>;
  /** The end of the text: parsePlan's result over the whole of it, and the rest of {@link PlanTextEnd}. */
  readonly ended: Promise<PlanTextEnd>;
}

/**
 * Reads `chunks` with a {@link PlanTextReader}. The calls of an eager document are yielded as
 * they close; a call whose own text has an error (E_DUPLICATE_KEY) is yielded as `null`, which a
 * run refuses. The text is read only as far as limits.maxTextLength.
 */
export function streamPlanText(
  chunks: AsyncIterable<string>,
  options: PlanTextReaderOptions = {},
): StreamedPlanText {
  const reader = new PlanTextReader(options);
  let end: PlanTextEnd | null = null;
  let settle!: (end: PlanTextEnd) => void;
  let fail!: (cause: unknown) => void;
  const ended = new Promise<PlanTextEnd>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Nobody may await `ended` (a run reads the symbol instead): its rejection is the iterator's too.
  ended.catch(() => {});
  const finish = (): PlanTextEnd => {
    end ??= reader.end();
    settle(end);
    return end;
  };
  async function* calls(): AsyncGenerator<unknown> {
    try {
      for await (const chunk of chunks) {
        for (const call of reader.push(chunk)) yield valueOf(call);
        if (reader.overLimit) break;
      }
      const last = finish();
      if (!runsWhole(last)) return;
      for (const call of last.calls) yield valueOf(call);
    } catch (cause) {
      fail(cause);
      throw cause;
    } finally {
      // A consumer that stopped early still gets the text's end.
      if (end === null) finish();
    }
  }
  const iterable = { [Symbol.asyncIterator]: calls, [PLAN_TEXT]: () => end };
  return { calls: iterable, ended };
}

function valueOf(call: StreamedCall): unknown {
  return hasErrors(call.diagnostics) ? null : call.value;
}

/** The rest of the calls run only when the whole text is an eager document without errors. */
function runsWhole(end: PlanTextEnd): boolean {
  return end.consistent && !hasErrors(end.parsed.diagnostics) && end.parsed.document?.mode === 'eager';
}

/**
 * For a run of `source`: the end of the text its calls came from, with the diagnostics that make
 * the run fail (the text's own errors, calls that turned out not to be the document's, a lazy
 * plan, which runs only once approved whole); undefined when `source` is no text stream.
 */
export function planTextOf(
  source: unknown,
): { end: PlanTextEnd; failed: boolean; problem?: ReturnType<typeof error> } | undefined {
  const read = (source as { [PLAN_TEXT]?: () => PlanTextEnd | null } | null)?.[PLAN_TEXT];
  if (typeof read !== 'function') return undefined;
  const end = read();
  if (end === null) return undefined;
  const document = end.parsed.document;
  if (!end.consistent) {
    const problem = error(
      'E_SHAPE',
      document?.callsPointer ?? '',
      'calls that ran while the text arrived are not the calls of the whole text (a calls array written twice, or messages followed by a call)',
      { hint: 'write each key once, and keep calls and messages apart' },
    );
    return { end, failed: true, problem };
  }
  if (document?.mode === 'lazy') {
    const problem = error(
      'E_SHAPE',
      document.callsPointer,
      'a lazy plan runs only once approved whole: it was not run as it arrived',
      {
        hint: 'run it as a whole plan, with approve',
      },
    );
    return { end, failed: true, problem };
  }
  return { end, failed: hasErrors(end.parsed.diagnostics) };
}

/**
 * The calls of `streamed` (a {@link streamPlanText} iterable) whose first value was already taken
 * from `iterator`: the same calls, and the same text for the run to place its diagnostics in.
 */
export function withFirstCall(
  streamed: AsyncIterable<unknown>,
  iterator: AsyncIterator<unknown>,
  first: unknown,
): AsyncIterable<unknown> {
  async function* calls(): AsyncGenerator<unknown> {
    let done = false;
    try {
      yield first;
      for (;;) {
        const step = await iterator.next();
        if (step.done) {
          done = true;
          return;
        }
        yield step.value;
      }
    } finally {
      if (!done) await iterator.return?.();
    }
  }
  const iterable = {
    [Symbol.asyncIterator]: calls,
    [PLAN_TEXT]: (streamed as { [PLAN_TEXT]?: () => PlanTextEnd | null })[PLAN_TEXT],
  };
  return iterable;
}
