/**
 * Every example plan (fixtures/examples) runs offline with its tools.mjs, input.json and
 * state.json. The expected states and call endings are derived by hand from each plan and the
 * tables in its tools.mjs, not copied from a run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/language/index.js';
import {
  type ApprovalRequest,
  type CallReport,
  type CallStatus,
  type LatentFunction,
  type RunEvent,
  type RunOptions,
  type RunResult,
  run,
} from '../../src/run/index.js';
import { loadToolsFile, type Tool, type ToolContext } from '../../src/tools/index.js';
import { EXAMPLES, exampleNames, readJson } from '../fixtures/fixtures.js';

/** What a tools.mjs exports: the tools, and a stand-in model where some tool is latent. */
interface ExampleModule {
  readonly tools: readonly Tool[];
  readonly latent?: LatentFunction;
}

const modules = new Map<string, Promise<ExampleModule>>();

function toolsModule(name: string): Promise<ExampleModule> {
  let loaded = modules.get(name);
  if (!loaded) {
    const url = pathToFileURL(join(EXAMPLES, name, 'tools.mjs')).href;
    loaded = import(url) as Promise<ExampleModule>;
    modules.set(name, loaded);
  }
  return loaded;
}

interface Outcome {
  readonly tool: string;
  readonly ok: boolean;
  readonly error?: unknown;
}

/** The tools, each `execute` counted: which tools ran, and how each execution settled. */
function counted(tools: readonly Tool[]) {
  const executed: string[] = [];
  const settled: Promise<Outcome>[] = [];
  const wrapped = tools.map((tool): Tool => {
    const execute = tool.execute;
    if (!execute) return tool;
    return {
      ...tool,
      execute: (args: Record<string, unknown>, ctx: ToolContext) => {
        executed.push(tool.name);
        const pending = Promise.resolve().then(() => execute(args, ctx));
        settled.push(
          pending.then(
            () => ({ tool: tool.name, ok: true }),
            (error: unknown) => ({ tool: tool.name, ok: false, error }),
          ),
        );
        return pending;
      },
    };
  });
  return { tools: wrapped, executed, settled };
}

/** A latent function with one canned result per call id, which records what it was asked. */
function canned(outputs: Record<string, unknown>) {
  const requests: { call: string; tool: string; args: JsonObject }[] = [];
  const latent: LatentFunction = ({ call, tool, definition, args }) => {
    expect(definition.name).toBe(tool);
    requests.push({ call, tool, args });
    if (!Object.hasOwn(outputs, call)) throw new Error(`no canned output for call ${call}`);
    return outputs[call];
  };
  return { latent, requests };
}

/** An approver that answers `answer(request)` and records what it was asked (without the plan). */
function approver(answer: (request: ApprovalRequest) => boolean = () => true) {
  const requests: { kind: string; call?: string; tool?: string; args?: JsonObject }[] = [];
  const approve = (request: ApprovalRequest) => {
    requests.push(
      request.kind === 'plan'
        ? { kind: 'plan' }
        : { kind: 'call', call: request.call, tool: request.tool, args: request.args },
    );
    return answer(request);
  };
  return { approve, requests };
}

type ExampleRunOptions = Omit<RunOptions, 'tools'> & {
  /** Replaces the plan's text (a small edit of plan.json). */
  readonly text?: string;
  /** Use the module's own `latent` (the offline stand-in for the model). */
  readonly moduleLatent?: boolean;
};

/** Runs an example with its tools.mjs, input.json and state.json (options override them). */
async function runExample(name: string, options: ExampleRunOptions = {}) {
  const dir = join(EXAMPLES, name);
  const module = await toolsModule(name);
  const { text, moduleLatent, ...rest } = options;
  const statePath = join(dir, 'state.json');
  const { tools, executed, settled } = counted(module.tools);
  const events: RunEvent[] = [];
  const result = await run(text ?? readFileSync(join(dir, 'plan.json'), 'utf8'), {
    input: readJson<JsonObject>(join(dir, 'input.json')),
    ...(existsSync(statePath) && { state: readJson<JsonObject>(statePath) }),
    ...(moduleLatent && module.latent && { latent: module.latent }),
    onEvent: (event) => events.push(event),
    ...rest,
    tools,
  });
  return { result, executed: [...executed].sort(), outcomes: await Promise.all(settled), events };
}

interface Ending {
  readonly id: string;
  readonly tool: string;
  readonly status: CallStatus;
  readonly branch: number | null;
  readonly handled: boolean;
  readonly attempts: number;
  readonly started: boolean;
  readonly error: CallReport['error'];
}

/** Each call's ending, in array order. */
function endings(result: RunResult): Ending[] {
  return result.calls.map(({ id, tool, status, branch, handled, attempts, startedAt, error }) => ({
    id,
    tool,
    status,
    branch,
    handled,
    attempts,
    started: startedAt !== null,
    error,
  }));
}

/** A call that ran once and returned (`branch`: the alternative written, null without `||`). */
function succeeded(id: string, tool: string, branch: number | null = null): Ending {
  return { id, tool, status: 'succeeded', branch, handled: false, attempts: 1, started: true, error: null };
}

/** A call that never started. */
function never(id: string, tool: string, status: CallStatus): Ending {
  return { id, tool, status, branch: null, handled: false, attempts: 0, started: false, error: null };
}

function outputOf(result: RunResult, id: string): unknown {
  return result.calls.find((call) => call.id === id)?.output;
}

function argsOf(result: RunResult, id: string): unknown {
  return result.calls.find((call) => call.id === id)?.args;
}

describe('fixtures/examples/*/tools.mjs', () => {
  it.each(exampleNames())(
    '%s: loads as the CLI loads it, with exactly the definitions of tools.json',
    async (name) => {
      const dir = join(EXAMPLES, name);
      const manifest = readJson<{ tools: Tool[] }>(join(dir, 'tools.json')).tools;
      const loaded = await loadToolsFile(join(dir, 'tools.mjs'));
      expect(loaded.map(({ execute: _execute, ...definition }) => definition)).toEqual(manifest);
      for (const tool of loaded) {
        expect(typeof tool.execute, tool.name).toBe(tool.latent ? 'undefined' : 'function');
      }
      // A stand-in for the model exactly where a tool is latent.
      const module = await toolsModule(name);
      expect(typeof module.latent).toBe(manifest.some((tool) => tool.latent) ? 'function' : 'undefined');
    },
  );
});

describe('user-profile: fetch, then summarize', () => {
  const alice = { name: 'Alice', joined: '2021-03-14', interests: ['astronomy', 'chess'] };

  it('writes the profile, then its summary', async () => {
    const { result, executed } = await runExample('user-profile');
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({
      userProfileData: alice,
      profileSummary: 'Alice joined on 2021-03-14 and is interested in astronomy and chess.',
    });
    expect(endings(result)).toEqual([succeeded('0', 'fetchUserProfile'), succeeded('1', 'summarizeProfile')]);
    expect(argsOf(result, '1')).toEqual({ profile: alice });
    expect(executed).toEqual(['fetchUserProfile', 'summarizeProfile']);
  });

  it('an unknown user fails the fetch, and the summary ends upstream_failed', async () => {
    const text = readFileSync(join(EXAMPLES, 'user-profile', 'plan.json'), 'utf8').replace(
      '"Alice"',
      '"Carol"',
    );
    const { result, executed } = await runExample('user-profile', { text });
    expect(result.status).toBe('failed');
    expect(result.state).toEqual({});
    expect(endings(result)).toEqual([
      {
        ...succeeded('0', 'fetchUserProfile'),
        status: 'failed',
        error: { message: 'no user named "Carol"', code: 'user_not_found' },
      },
      never('1', 'summarizeProfile', 'upstream_failed'),
    ]);
    expect(executed).toEqual(['fetchUserProfile']);
  });

  it('a run timeout aborts the waiting tool: it stops at once, and the call fails TIMEOUT', async () => {
    const { result, outcomes } = await runExample('user-profile', { timeoutMs: 5 });
    expect(result.status).toBe('failed');
    expect(endings(result)).toEqual([
      {
        ...succeeded('0', 'fetchUserProfile'),
        status: 'failed',
        error: { message: 'timed out after 5 ms', code: 'TIMEOUT' },
      },
      never('1', 'summarizeProfile', 'upstream_failed'),
    ]);
    // The tool's own promise rejected with the AbortError of its wait: it honoured the signal.
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ tool: 'fetchUserProfile', ok: false, error: { name: 'AbortError' } });
  });
});

describe.each(['refund', 'refund-next-turn'])('%s: billing history and an approved refund', (name) => {
  const history = { orders: 5, lastChargeback: '2025-09-10' };
  // refund-next-turn's state message holds the first turn's billing history; no call writes state.
  const state = name === 'refund' ? {} : { billingHistory: history };

  it('runs both calls; the refund after a person approves it', async () => {
    const { approve, requests } = approver();
    const { result, executed } = await runExample(name, { approve });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual(state);
    expect(endings(result)).toEqual([succeeded('0', 'checkBillingHistory'), succeeded('1', 'issueRefund')]);
    expect(outputOf(result, '0')).toEqual(history);
    expect(outputOf(result, '1')).toEqual({
      confirmationId: 'rf_123_5000',
      message: 'Refunded 50.00 to cust_123.',
    });
    expect(requests).toEqual([
      { kind: 'call', call: '1', tool: 'issueRefund', args: { customerId: 'cust_123', amount: 50 } },
    ]);
    expect(executed).toEqual(['checkBillingHistory', 'issueRefund']);
  });

  it('without an approval the refund is rejected and never runs; the history still does', async () => {
    const { result, executed } = await runExample(name);
    expect(result.status).toBe('rejected');
    expect(result.state).toEqual(state);
    expect(endings(result)).toEqual([
      succeeded('0', 'checkBillingHistory'),
      never('1', 'issueRefund', 'rejected'),
    ]);
    expect(executed).toEqual(['checkBillingHistory']);
  });
});

describe('pet-friendly-hotel: the adjusted plan', () => {
  it('books the flight (approved) and finds a hotel that takes the dog; bookHotel is never called', async () => {
    const { approve, requests } = approver();
    const { result, executed } = await runExample('pet-friendly-hotel', { approve });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({});
    expect(endings(result)).toEqual([succeeded('0', 'bookFlight'), succeeded('1', 'findPetFriendlyHotel')]);
    expect(outputOf(result, '0')).toEqual({
      bookingId: 'FL-BER-20251001',
      departure: '2025-10-01T08:30:00Z',
    });
    expect(outputOf(result, '1')).toEqual({ hotel: 'Pension Pfotenhaus', petFeePerNight: 15 });
    expect(requests).toEqual([
      { kind: 'call', call: '0', tool: 'bookFlight', args: { destination: 'Berlin' } },
    ]);
    expect(executed).toEqual(['bookFlight', 'findPetFriendlyHotel']);
  });
});

describe('payment-failure: †state.receipt || †state.error', () => {
  const declined = { message: 'Your card was declined.', code: 'card_declined' };

  it('approved (50 <= the card limit): the receipt is written and confirmOrder runs', async () => {
    const { result, executed } = await runExample('payment-failure');
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ receipt: { receiptId: 'rcpt_5000', amount: 50 } });
    expect(endings(result)).toEqual([succeeded('0', 'processPayment', 0), succeeded('1', 'confirmOrder')]);
    expect(argsOf(result, '1')).toEqual({ receipt: { receiptId: 'rcpt_5000', amount: 50 } });
    expect(outputOf(result, '1')).toEqual({ orderId: 'ord_5000' });
    expect(executed).toEqual(['confirmOrder', 'processPayment']);
  });

  it('declined (500): processPayment declares errorBranch, so the error goes to the last alternative, confirmOrder is skipped, the run succeeds', async () => {
    const { result, executed } = await runExample('payment-failure', { input: { amount: 500 } });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ error: declined });
    expect(endings(result)).toEqual([
      { ...succeeded('0', 'processPayment', 1), status: 'failed', handled: true, error: declined },
      never('1', 'confirmOrder', 'skipped'),
    ]);
    expect(executed).toEqual(['processPayment']);
  });

  it('the declined state is the state the replanned turn starts from', async () => {
    const { result } = await runExample('payment-failure', { input: { amount: 500 } });
    expect(result.state).toEqual(readJson(join(EXAMPLES, 'payment-failure-replan', 'state.json')));
  });

  it('an aborted run cancels the payment while it waits, and confirmOrder never starts', async () => {
    const controller = new AbortController();
    const { result, outcomes } = await runExample('payment-failure', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'call:start') setTimeout(() => controller.abort(), 5);
      },
    });
    expect(result.status).toBe('cancelled');
    expect(result.state).toEqual({});
    expect(endings(result)).toEqual([
      { ...succeeded('0', 'processPayment'), status: 'cancelled' },
      never('1', 'confirmOrder', 'cancelled'),
    ]);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ tool: 'processPayment', ok: false, error: { name: 'AbortError' } });
  });

  // Executor bug: run() emits call:start before it creates the attempt's AbortController, so an
  // abort from an onEvent observer at call:start reaches no controller; the tool then starts
  // with a signal that never fires, its result is written and the call ends `succeeded` inside
  // a `cancelled` run. RunOptions.signal promises that running calls see their signal fire.
  it('an abort at call:start reaches the tool that is starting', async () => {
    const controller = new AbortController();
    const { result, outcomes } = await runExample('payment-failure', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'call:start') controller.abort();
      },
    });
    expect(result.status).toBe('cancelled');
    expect(result.state).toEqual({});
    expect(endings(result).map(({ id, status }) => [id, status])).toEqual([
      ['0', 'cancelled'],
      ['1', 'cancelled'],
    ]);
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({ ok: false, error: { name: 'AbortError' } });
  });
});

describe('payment-failure-replan: the next turn reports the failure', () => {
  it('reads †state.error from state.json and reports it; the state is unchanged', async () => {
    const { result, executed } = await runExample('payment-failure-replan');
    const error = { code: 'card_declined', message: 'Your card was declined.' };
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ error });
    expect(endings(result)).toEqual([succeeded('0', 'reportFailure')]);
    expect(argsOf(result, '0')).toEqual({ error });
    expect(outputOf(result, '0')).toEqual({ notified: true });
    expect(executed).toEqual(['reportFailure']);
  });
});

describe('schema-guided-translation: detect, decide, translate', () => {
  it('French text: language fr, not English, translateText translates', async () => {
    const { result, executed } = await runExample('schema-guided-translation');
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ language: 'fr', isEnglish: false, translatedText: 'Hello world' });
    expect(endings(result)).toEqual([
      succeeded('0', 'detectLanguage'),
      succeeded('1', 'isEnglish'),
      succeeded('2', 'translateText'),
    ]);
    expect(argsOf(result, '2')).toEqual({ text: 'Bonjour le monde', isEnglish: false });
    expect(executed).toEqual(['detectLanguage', 'isEnglish', 'translateText']);
  });

  it('German is translated, English is kept as is', async () => {
    const german = await runExample('schema-guided-translation', { input: { text: 'Hallo Welt!' } });
    expect(german.result.status).toBe('succeeded');
    expect(german.result.state).toEqual({ language: 'de', isEnglish: false, translatedText: 'Hello world' });

    const english = await runExample('schema-guided-translation', { input: { text: 'Good morning, world' } });
    expect(english.result.status).toBe('succeeded');
    expect(english.result.state).toEqual({
      language: 'en',
      isEnglish: true,
      translatedText: 'Good morning, world',
    });
  });

  it('a latent translateText in this eager plan, without _output, is E_NO_OUTPUT: the plan does not run', async () => {
    const module = await toolsModule('schema-guided-translation');
    const tools = module.tools.map((tool) =>
      tool.name === 'translateText' ? { ...tool, latent: true, execute: undefined } : tool,
    );
    const text = readFileSync(join(EXAMPLES, 'schema-guided-translation', 'plan.json'), 'utf8');
    await expect(run(text, { tools, latent: () => 'Hello world' })).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: 'E_NO_OUTPUT', call: '2' })],
    });
  });
});

describe('weather-branch: a branch and its join', () => {
  it('sunny (Paris): the plain value takes the first alternative, findPark runs, findMovie is skipped', async () => {
    const { result, executed } = await runExample('weather-branch');
    const suggestion = { kind: 'park', name: 'Jardin du Luxembourg' };
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ sunny: { condition: 'sunny', temperature: 24 }, suggestion });
    expect(endings(result)).toEqual([
      succeeded('weather', 'getWeather', 0),
      succeeded('park', 'findPark'),
      never('movie', 'findMovie', 'skipped'),
      succeeded('present', 'presentSuggestion'),
    ]);
    expect(argsOf(result, 'present')).toEqual({ suggestion });
    expect(outputOf(result, 'present')).toBe(
      'A fine day to be outside: take a walk in Jardin du Luxembourg.',
    );
    expect(executed).toEqual(['findPark', 'getWeather', 'presentSuggestion']);
  });

  it('rainy (London): the branch value takes alternative 1, findMovie runs, findPark is skipped', async () => {
    const { result, executed } = await runExample('weather-branch', { input: { city: 'London' } });
    const suggestion = { kind: 'movie', name: 'Paddington', cinema: 'Prince Charles Cinema' };
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ notSunny: { condition: 'rain', temperature: 12 }, suggestion });
    expect(endings(result)).toEqual([
      succeeded('weather', 'getWeather', 1),
      never('park', 'findPark', 'skipped'),
      succeeded('movie', 'findMovie'),
      succeeded('present', 'presentSuggestion'),
    ]);
    expect(argsOf(result, 'present')).toEqual({ suggestion });
    expect(outputOf(result, 'present')).toBe(
      'Better stay in today: see Paddington at Prince Charles Cinema.',
    );
    expect(executed).toEqual(['findMovie', 'getWeather', 'presentSuggestion']);
  });

  it('an unknown city throws: getWeather declares no error alternative, so the call and the run fail, and no movie is suggested', async () => {
    const { result, executed } = await runExample('weather-branch', { input: { city: 'Atlantis' } });
    const error = { message: 'no weather station in "Atlantis"', code: 'unknown_city' };
    expect(result.status).toBe('failed');
    // Neither sunny nor notSunny is an error alternative: the error is written nowhere.
    expect(result.state).toEqual({});
    expect(endings(result)).toEqual([
      { ...succeeded('weather', 'getWeather'), status: 'failed', error },
      never('park', 'findPark', 'upstream_failed'),
      never('movie', 'findMovie', 'upstream_failed'),
      never('present', 'presentSuggestion', 'upstream_failed'),
    ]);
    expect(executed).toEqual(['getWeather']);
  });

  it('snowy (Oslo): the film, presented with its cinema', async () => {
    const snowy = await runExample('weather-branch', { input: { city: 'Oslo' } });
    expect(snowy.result.status).toBe('succeeded');
    expect(outputOf(snowy.result, 'present')).toBe(
      'Better stay in today: see The Worst Person in the World at Vika Kino.',
    );
  });

  it('with presentSuggestion made latent again, the eager plan is refused at compile (E_NO_OUTPUT), before any call runs', async () => {
    const module = await toolsModule('weather-branch');
    const { tools, executed } = counted(
      module.tools.map((tool) =>
        tool.name === 'presentSuggestion' ? { ...tool, latent: true, execute: undefined } : tool,
      ),
    );
    const text = readFileSync(join(EXAMPLES, 'weather-branch', 'plan.json'), 'utf8');
    await expect(
      run(text, { tools, input: { city: 'Paris' }, latent: () => 'Go for a walk.' }),
    ).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: 'E_NO_OUTPUT', call: 'present' })],
    });
    expect(executed).toEqual([]);
  });

  it('made lazy instead, the latent presentSuggestion is asked of the model after approval', async () => {
    const module = await toolsModule('weather-branch');
    const tools = module.tools.map((tool) =>
      tool.name === 'presentSuggestion' ? { ...tool, latent: true, execute: undefined } : tool,
    );
    const { latent, requests } = canned({ present: 'Go for a walk.' });
    const text = readFileSync(join(EXAMPLES, 'weather-branch', 'plan.json'), 'utf8');
    const result = await run(text, {
      tools,
      input: { city: 'Paris' },
      mode: 'lazy',
      approve: () => true,
      latent,
    });
    expect(result.status).toBe('succeeded');
    expect(outputOf(result, 'present')).toBe('Go for a walk.');
    expect(requests).toEqual([
      {
        call: 'present',
        tool: 'presentSuggestion',
        args: { suggestion: { kind: 'park', name: 'Jardin du Luxembourg' } },
      },
    ]);
  });
});

describe('lazy-research: a lazy plan, a latent summary, an approved email', () => {
  const snippets = [
    'Modern air-source heat pumps keep heating at -25 °C.',
    'Their efficiency falls as the outdoor temperature drops, but stays above 1.',
    'Ground-source heat pumps are unaffected by cold air.',
  ];
  const results = [
    {
      url: 'https://example.org/cold-climate-heat-pumps',
      title: 'Cold-climate heat pumps',
      snippet: snippets[0],
    },
    {
      url: 'https://example.org/heat-pump-efficiency',
      title: 'Efficiency in the cold',
      snippet: snippets[1],
    },
    { url: 'https://example.org/ground-source', title: 'Ground-source systems', snippet: snippets[2] },
  ];
  const summary = 'Heat pumps work in cold climates, a little less efficiently.';

  it('approved: search, the model summarizes (fan-out to two paths), the email is approved and sent', async () => {
    const { approve, requests: approvals } = approver();
    const { latent, requests: asked } = canned({ summarize: summary });
    const { result, executed, events } = await runExample('lazy-research', { approve, latent });
    expect(events[0]).toMatchObject({ type: 'run:start', mode: 'lazy', calls: 3 });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ results, summary, archive: { lastSummary: summary } });
    expect(endings(result)).toEqual([
      succeeded('search', 'searchWeb'),
      succeeded('summarize', 'summarize'),
      succeeded('email', 'sendEmail'),
    ]);
    expect(asked).toEqual([
      { call: 'summarize', tool: 'summarize', args: { texts: snippets, maxWords: 120 } },
    ]);
    expect(approvals).toEqual([
      { kind: 'plan' },
      {
        kind: 'call',
        call: 'email',
        tool: 'sendEmail',
        args: { to: 'ada@example.com', subject: 'Research digest', body: summary },
      },
    ]);
    expect(outputOf(result, 'email')).toEqual({ messageId: 'msg_ada_research-digest' });
    expect(executed).toEqual(['searchWeb', 'sendEmail']);
  });

  it('rejected at the plan: status rejected, every call rejected, no tool and no model called', async () => {
    const { approve, requests: approvals } = approver(() => false);
    const { latent, requests: asked } = canned({ summarize: summary });
    const { result, executed } = await runExample('lazy-research', { approve, latent });
    expect(result.status).toBe('rejected');
    expect(result.state).toEqual({});
    expect(endings(result)).toEqual([
      never('search', 'searchWeb', 'rejected'),
      never('summarize', 'summarize', 'rejected'),
      never('email', 'sendEmail', 'rejected'),
    ]);
    expect(approvals).toEqual([{ kind: 'plan' }]);
    expect(executed).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('plan approved, email refused: the research is done, the email is rejected and never sent', async () => {
    const { approve } = approver((request) => request.kind === 'plan');
    const { latent } = canned({ summarize: summary });
    const { result, executed } = await runExample('lazy-research', { approve, latent });
    expect(result.status).toBe('rejected');
    expect(result.state).toEqual({ results, summary, archive: { lastSummary: summary } });
    expect(endings(result)).toEqual([
      succeeded('search', 'searchWeb'),
      succeeded('summarize', 'summarize'),
      never('email', 'sendEmail', 'rejected'),
    ]);
    expect(executed).toEqual(['searchWeb']);
  });

  it("with the module's stand-in model: the summary is the snippets, within maxWords", async () => {
    const { approve } = approver();
    const { result } = await runExample('lazy-research', { approve, moduleLatent: true });
    const joined = snippets.join(' ');
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ results, summary: joined, archive: { lastSummary: joined } });
  });
});
