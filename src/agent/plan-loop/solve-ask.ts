/**
 * One solution from the model, repaired with its diagnostics up to maxRepairs times. Each request
 * is a turn of the budget, its usage counted; a request cut by a budget or the caller's signal
 * ends the loop with the diagnostics of the last reply that could not be used.
 *
 * With `streamed` (an eager loop), each reply's calls start while it is written (see
 * solve-streamed.ts): a reply that ends as a solution comes back with its run under way; one
 * that does not has its run halted and awaited, reported with the repair request, and recorded
 * in the ledger so nothing of it runs again.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { RunResult } from '../../run/types.js';
import type { JsonSchema } from '../../tools/tool.js';
import { complete } from '../complete.js';
import type { Message } from '../model.js';
import { isReplyTooLargeError } from '../providers/index.js';
import type { BudgetMeter } from './budget-meter.js';
import { type ReadReply, readReply, tooLargeReply } from './solve-reply.js';
import { ranReport, StreamedAttempt, type StreamedAttemptOptions } from './solve-streamed.js';
import type { SolveDependencies } from './solve-types.js';

export type Solution =
  | {
      ok: true;
      ended?: undefined;
      plan: CompiledPlan;
      calls: unknown[];
      output: unknown;
      repairs: number;
      /**
       * The reply as it streamed, its calls under way (streamed loops only): the loop either
       * finishes it (the rest of the calls go on) or abandons it (a repeat).
       */
      streamed: StreamedAttempt | null;
    }
  | {
      ok: false;
      /** budget: a budget ran out; undefined: out of repairs. */
      ended?: 'budget';
      diagnostics: readonly Diagnostic[];
    };

export interface AskOptions {
  readonly compile: Parameters<typeof readReply>[1]['compile'];
  readonly maxCallsPerPlan: number | null;
  readonly maxRepairs: number;
  readonly maxReplyBytes: number;
  /** The reply follows the strict plan schema: its nulls for left-out keys are dropped. */
  readonly strict: boolean;
  /**
   * Run each reply's calls as they stream in; `halted` gets the run of each reply that turned
   * out unusable after calls of it had started.
   * @default not streamed: the reply is read whole
   */
  readonly streamed?: {
    readonly attempt: Omit<StreamedAttemptOptions, 'limits'>;
    /** A reply whose calls had started is found unusable: its run is about to be halted. */
    readonly halting: () => void;
    readonly halted: (result: RunResult) => void;
  };
}

export async function askForSolution(
  deps: SolveDependencies,
  meter: BudgetMeter,
  messages: Message[],
  format: { name: string; schema: JsonSchema },
  how: AskOptions,
): Promise<Solution> {
  let diagnostics: readonly Diagnostic[] = [];
  for (let repairs = 0; repairs <= how.maxRepairs; repairs++) {
    if (!meter.ask()) return { ok: false, ended: 'budget', diagnostics };
    const attempt =
      how.streamed && new StreamedAttempt({ ...how.streamed.attempt, limits: how.compile.limits ?? {} });
    // What ran of a reply that cannot be used is awaited before the loop goes on, whatever
    // ended it; once, however many ways it turned out unusable.
    let abandoned: Promise<RunResult | null> | undefined;
    const abandon = () =>
      (abandoned ??= (async () => {
        if (attempt?.started) how.streamed!.halting();
        const result = attempt ? await attempt.abandon() : null;
        if (result) how.streamed!.halted(result);
        return result;
      })());
    let reply: ReadReply;
    try {
      const turn = await complete(
        deps.provider,
        { messages, tools: [], responseFormat: format, signal: meter.signal },
        { maxReplyBytes: how.maxReplyBytes, ...(attempt && { onTextDelta: (text) => attempt.push(text) }) },
      );
      if (!meter.used(turn.usage)) {
        await abandon();
        return { ok: false, ended: 'budget', diagnostics };
      }
      const text = turn.message.content;
      messages.push({ role: 'assistant', content: text });
      reply = readReply(text, {
        compile: how.compile,
        maxCallsPerPlan: how.maxCallsPerPlan,
        strict: how.strict,
      });
    } catch (error) {
      await abandon();
      if (meter.exceeded) return { ok: false, ended: 'budget', diagnostics };
      if (deps.signal?.aborted) throw error;
      if (!isReplyTooLargeError(error)) throw error;
      // Nothing of a cut reply is read further: the model is told, as for any reply it must fix.
      reply = tooLargeReply(error.maxBytes);
    }
    if (reply.ok) {
      meter.wrote(reply.calls.length);
      attempt?.end(reply.calls);
      return {
        ok: true,
        plan: reply.plan,
        calls: reply.calls,
        output: reply.output,
        repairs,
        streamed: attempt || null,
      };
    }
    diagnostics = reply.diagnostics;
    const halted = await abandon();
    const ran = halted && ranReport(halted);
    messages.push({ role: 'user', content: ran ? `${reply.repair}\n\n${ran}` : reply.repair });
  }
  return { ok: false, diagnostics };
}
