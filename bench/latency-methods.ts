/**
 * bench/latency-methods: one gold plan carried out four ways, each through planmode's public API
 * against the loopback model server, so the bench measures whatever that API does today:
 *
 * - `react`: `PlanAgent.execute()` with a model that makes one native tool call per turn (the
 *   plan's calls in order, their arguments the concrete values), then answers;
 * - `parallel`: `PlanAgent.execute()` with a model that makes, each turn, every call whose inputs
 *   exist (the plan's dependency levels), then answers (parallel function calling);
 * - `lazy`: `PlanAgent.solve()` in lazy mode: the whole solution, its dry run, an approval
 *   (always yes), then the run; a second turn gives the answer;
 * - `eager`: `PlanAgent.solve()` in eager mode: the solution's calls run as solve() runs them.
 *
 * Every method gets the same model pace, the same final answer's cost, and fresh mocks of the
 * same seed, so each call waits the same latency in every method.
 */
import { createProvider, OpenAICompatibleProvider, PlanAgent } from '../src/agent/index.js';
import { type MockLatency, mockTools } from '../src/import/index.js';
import type { Tool, ToolContext } from '../src/tools/index.js';
import { FINAL_SOLUTION, type PlayedPlan } from './latency-plans.js';
import type { Reply, ModelServer } from './latency-server.js';
import type { ModelPace } from './latency-timeline.js';

export const METHODS = ['react', 'parallel', 'lazy', 'eager'] as const;
export type Method = (typeof METHODS)[number];

/** One method's run of one plan. */
export interface MethodRun {
  /** From the call into planmode to its answer, in ms. */
  readonly endToEndMs: number;
  /** From the same start to the first tool call's start, in ms. */
  readonly firstCallMs: number;
}

export interface MethodSetup {
  readonly server: ModelServer;
  readonly pace: ModelPace;
  readonly seed: number;
  readonly latency: MockLatency;
  /** Makes the session's name unique on the server. */
  readonly tag: string;
}

/** The answer text of the native methods' last turn: it costs what planmode's final reply costs. */
const FINAL_TEXT = 'done';

/** What the model says, turn by turn, in `method`. */
export function repliesOf(method: Method, plan: PlayedPlan): Reply[] {
  const final: Reply = { parts: [{ kind: 'content', text: FINAL_TEXT, cost: FINAL_SOLUTION.length }] };
  const callPart = (i: number) => {
    const call = plan.calls[i]!;
    const text = JSON.stringify(call.args);
    return { kind: 'call' as const, id: `call_${i + 1}`, name: call.tool, text, cost: call.text.length };
  };
  switch (method) {
    case 'react':
      return [...plan.order.map((i) => ({ parts: [callPart(i)] })), final];
    case 'parallel':
      return [...plan.levels.map((level) => ({ parts: level.map(callPart) })), final];
    default: {
      const solution = { kind: 'content' as const, text: plan.solution, cost: plan.solution.length };
      const answer = { kind: 'content' as const, text: FINAL_SOLUTION, cost: FINAL_SOLUTION.length };
      return [{ parts: [solution] }, { parts: [answer] }];
    }
  }
}

/**
 * Sets `method` up for `plan` (the session on the server, the provider with its SDK loaded, the
 * mocks and the agent: setup, outside the time measured) and returns the timed run.
 */
export async function prepareMethod(
  method: Method,
  plan: PlayedPlan,
  setup: MethodSetup,
): Promise<() => Promise<MethodRun>> {
  const name = `${setup.tag}/${plan.id}/${method}`;
  const replies = repliesOf(method, plan);
  setup.server.play(name, { pace: setup.pace, replies });
  const provider = createProvider(`openai:${name}`, {
    baseURL: setup.server.baseURL,
    maxRetries: 0,
    env: {},
  });
  if (provider instanceof OpenAICompatibleProvider) await provider.loadSdk();
  let start = 0;
  let firstCallMs = Number.NaN;
  const tools = firstStart(mockTools(plan.sample.tools, { seed: setup.seed, latency: setup.latency }), () => {
    if (Number.isNaN(firstCallMs)) firstCallMs = performance.now() - start;
  });
  let succeeded = 0;
  const agent = new PlanAgent({
    provider,
    tools,
    onEvent: (event) => {
      if (event.type === 'tool-result' && event.outcome === 'succeeded') succeeded++;
      if (event.type === 'run-end')
        succeeded += event.result.calls.filter((c) => c.status === 'succeeded').length;
    },
  });
  return async () => {
    start = performance.now();
    const done =
      method === 'react' || method === 'parallel'
        ? (await agent.execute([{ role: 'user', content: plan.task }])).status
        : (await agent.solve(plan.task, { mode: method, approve: () => true })).status;
    const endToEndMs = performance.now() - start;
    const served = setup.server.finish(name);
    const expected = method === 'react' || method === 'parallel' ? 'answered' : 'done';
    if (done !== expected || served !== replies.length || succeeded !== plan.calls.length) {
      throw new Error(
        `${method} ended ${done} after ${served} of ${replies.length} replies, ${succeeded} of ${plan.calls.length} calls succeeded`,
      );
    }
    return { endToEndMs, firstCallMs };
  };
}

/** The tools, each telling `started` when it is called. */
function firstStart(tools: readonly Tool[], started: () => void): Tool[] {
  return tools.map((tool) => {
    const execute = tool.execute!;
    return {
      ...tool,
      execute: (args: Record<string, unknown>, context: ToolContext) => {
        started();
        return execute(args, context);
      },
    };
  });
}
