/**
 * A pause holds the whole run, workflows' sub-runs included: pausing the top run (as `plan run`
 * does while an approval question is open) starts no call inside a workflow call that is
 * running, and a question asked from inside a sub-run, answered by pausing the top run, holds
 * every other sub-run too (a sibling workflow call's, another `_forEach` element's). Real
 * sub-runs; tools held by deferred promises; what started is read from the events `onEvent`
 * heard (synchronously: a call that is ready starts at once unless held), looked at as the
 * iterator of the same events reaches the moment.
 */
import { describe, expect, it } from 'vitest';
import { type ApprovalRequest, type RunEvent, type RunHandle, startRun, type Tool } from '../../src/index.js';
import { deferred } from '../deferred.js';

/** The ids of the calls that started, with the chain of workflow calls above each (`w/x`). */
function started(events: readonly RunEvent[]): string[] {
  return events
    .filter((e) => e.type === 'call:start')
    .map((e) => {
      const parent = 'parent' in e ? (e.parent as readonly { call: string; element?: number }[]) : [];
      return [
        ...parent.map((p) => (p.element === undefined ? p.call : `${p.call}[${p.element}]`)),
        e.call,
      ].join('/');
    });
}

/** The position of the `_forEach` element an event of a sub-run comes from. */
function elementOf(event: RunEvent): number | undefined {
  return 'parent' in event ? (event.parent as readonly { element?: number }[])[0]?.element : undefined;
}

/** `hold` waits for `gate`; `next` returns its argument. */
function holdingTools(gate: Promise<void>, holding: () => void): Tool[] {
  return [
    { name: 'hold', execute: async () => (holding(), await gate, 1) },
    { name: 'next', execute: (args) => args.v },
  ];
}

/** Two calls in a row: `x` held, then `y` reading it. */
const work: Tool = {
  name: 'work',
  plan: [
    { _id: 'x', _tool: 'hold', _outputPath: '†state.x' },
    { _id: 'y', _tool: 'next', v: '†state.x', _outputPath: '†state.y' },
  ],
  output: '†state.y',
};

describe('pausing a run holds its workflows’ sub-runs', () => {
  it('pause() while a workflow call runs: the call that gets ready inside it waits for resume()', async () => {
    const gate = deferred();
    const events: RunEvent[] = [];
    const handle = startRun([{ _id: 'w', _tool: 'work', _outputPath: '†state.w' }], {
      tools: [...holdingTools(gate.promise, () => {}), work],
      onEvent: (event) => events.push(event),
    });
    let checked = false;
    for await (const event of handle.events) {
      if (event.type === 'call:start' && event.call === 'x') {
        handle.pause();
        gate.resolve();
      }
      if (event.type === 'call:ready' && event.call === 'y') {
        // y got ready while the run was paused: it has not started.
        expect(started(events)).toEqual(['w', 'w/x']);
        checked = true;
        handle.resume();
      }
    }
    expect(checked).toBe(true);
    const result = await handle.result;
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ w: 1 });
    expect(started(events)).toEqual(['w', 'w/x', 'w/y']);
  });

  it('a sub-run that starts while the run is paused (a _forEach element) starts none of its calls', async () => {
    const gate = deferred();
    const events: RunEvent[] = [];
    /** Given `{hold: true}` it holds; given `{v}` it returns v. */
    const either: Tool = {
      name: 'either',
      plan: [
        { _id: 'x', _tool: 'hold', h: '†input.spec.hold', _outputPath: '†state.out' },
        { _id: 'z', _tool: 'next', v: '†input.spec.v', _outputPath: '†state.out' },
      ],
      output: '†state.out',
    };
    // One element at a time: element 1 starts as element 0 ends, which is while paused (the
    // elements of a call that runs go on, as its retries do).
    const handle = startRun(
      [{ _id: 'each', _tool: 'either', _forEach: '†input.items', spec: '†item', _outputPath: '†state.each' }],
      {
        tools: [...holdingTools(gate.promise, () => {}), either],
        input: { items: [{ hold: true }, { v: 2 }] },
        concurrency: 1,
        onEvent: (event) => events.push(event),
      },
    );
    let checked = false;
    for await (const event of handle.events) {
      if (event.type === 'call:start' && event.call === 'x') {
        handle.pause();
        gate.resolve();
      }
      if (event.type === 'call:ready' && event.call === 'z' && elementOf(event) === 1) {
        expect(started(events)).toEqual(['each', 'each[0]/x']);
        checked = true;
        handle.resume();
      }
    }
    expect(checked).toBe(true);
    expect((await handle.result).state).toEqual({ each: [1, 2] });
    expect(started(events)).toEqual(['each', 'each[0]/x', 'each[1]/z']);
  });
});

/**
 * An approver like `plan run`'s: it pauses the run while the question is open, and resumes it
 * once answered (the test answers through `answer`).
 */
function pausingApprover(handleOf: () => RunHandle, asked: (request: ApprovalRequest) => void) {
  const answer = deferred<boolean>();
  const approve = async (request: ApprovalRequest): Promise<boolean> => {
    // Asked as the run starts, inside startRun(): the handle is there once it has returned.
    await Promise.resolve();
    const handle = handleOf();
    handle.pause();
    asked(request);
    const yes = await answer.promise;
    handle.resume();
    return yes;
  };
  return { approve, answer };
}

describe('a question asked inside a workflow pauses the whole run', () => {
  const check: Tool = { name: 'check', needsApproval: true, execute: () => 'ok' };
  /** A workflow whose one call asks for approval. */
  const asker: Tool = {
    name: 'asker',
    plan: [{ _id: 'g', _tool: 'check', _outputPath: '†state.g' }],
    output: '†state.g',
  };

  it('another workflow call’s sub-run starts no call while the question is open', async () => {
    const gate = deferred();
    const holding = deferred();
    const events: RunEvent[] = [];
    let handle: RunHandle | undefined = undefined;
    const requests: ApprovalRequest[] = [];
    const { approve, answer } = pausingApprover(
      () => handle!,
      (request) => {
        requests.push(request);
        // x is running (its sub-run started before the asking one): let it end now.
        void holding.promise.then(() => gate.resolve());
      },
    );
    handle = startRun(
      [
        { _id: 'w', _tool: 'work', _outputPath: '†state.w' },
        { _id: 'q', _tool: 'asker', _outputPath: '†state.q', _independent: true },
      ],
      {
        tools: [...holdingTools(gate.promise, () => holding.resolve()), work, check, asker],
        approve,
        onEvent: (event) => events.push(event),
      },
    );
    let checked = false;
    for await (const event of handle.events) {
      if (event.type === 'call:ready' && event.call === 'y') {
        expect(started(events)).toEqual(['w', 'w/x', 'q']);
        expect(handle.paused).toBe(true);
        checked = true;
        answer.resolve(true);
      }
    }
    expect(checked).toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: 'call', call: 'g', parent: [{ call: 'q', tool: 'asker' }] });
    const result = await handle.result;
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ w: 1, q: 'ok' });
    expect(started(events)).toEqual(['w', 'w/x', 'q', 'w/y', 'q/g']);
  });

  it('under a _forEach: one element’s question holds another element’s sub-run', async () => {
    const gate = deferred();
    const holding = deferred();
    const events: RunEvent[] = [];
    let handle: RunHandle | undefined = undefined;
    const { approve, answer } = pausingApprover(
      () => handle!,
      () => void holding.promise.then(() => gate.resolve()),
    );
    /** An element given `{hold: true}` holds then reads; one given `{ask: true}` asks. */
    const either: Tool = {
      name: 'either',
      plan: [
        { _id: 'x', _tool: 'hold', h: '†input.spec.hold', _outputPath: '†state.x' },
        { _id: 'y', _tool: 'next', v: '†state.x', _outputPath: '†state.y' },
        { _id: 'g', _tool: 'check', a: '†input.spec.ask', _outputPath: '†state.g' },
      ],
      output: '†state.y || †state.g',
    };
    handle = startRun(
      [{ _id: 'each', _tool: 'either', _forEach: '†input.items', spec: '†item', _outputPath: '†state.each' }],
      {
        tools: [...holdingTools(gate.promise, () => holding.resolve()), check, either],
        input: { items: [{ hold: true }, { ask: true }] },
        approve,
        onEvent: (event) => events.push(event),
      },
    );
    let checked = false;
    for await (const event of handle.events) {
      if (event.type === 'call:ready' && event.call === 'y' && elementOf(event) === 0) {
        expect(started(events)).not.toContain('each[0]/y');
        expect(handle.paused).toBe(true);
        checked = true;
        answer.resolve(true);
      }
    }
    expect(checked).toBe(true);
    const result = await handle.result;
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ each: [1, 'ok'] });
    // What got ready while paused starts first once answered: y, then the approved g.
    expect(started(events)).toEqual(['each', 'each[0]/x', 'each[0]/y', 'each[1]/g']);
  });
});
