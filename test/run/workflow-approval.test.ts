/**
 * Inside a workflow is as checked as outside: a `needsApproval` call in a workflow's plan asks
 * the run's `approve`, saying where it is (`parent`); a no there rejects the workflow call as a
 * no at top level rejects a call; the sub-run's events carry the chain of calls above it; and the
 * sub-run keeps the run's options that bound what a run may do.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApprovalRequest,
  type CallApprovalRequest,
  run,
  type RunEvent,
  type Tool,
  type WorkflowRunEvent,
} from '../../src/index.js';

const deployed: string[] = [];
const deploy: Tool = {
  name: 'deploy',
  needsApproval: true,
  execute: (args) => {
    deployed.push(String(args.env));
    return `deployed ${String(args.env)}`;
  },
};
const echo: Tool = { name: 'echo', execute: (args) => args.text };

/** deploy, inside a workflow. */
const ship: Tool = {
  name: 'ship',
  plan: [{ _id: 'd', _tool: 'deploy', env: '†input.env', _outputPath: '†state.out' }],
  output: '†state.out',
};
/** ship, once per environment: a workflow that runs a workflow per element. */
const release: Tool = {
  name: 'release',
  plan: [{ _id: 's', _tool: 'ship', _forEach: '†input.envs', env: '†item', _outputPath: '†state.out' }],
  output: '†state.out',
};

function calls(requests: ApprovalRequest[]): CallApprovalRequest[] {
  return requests.filter((r): r is CallApprovalRequest => r.kind === 'call');
}

describe('a needsApproval call inside a workflow', () => {
  it('asks the run’s approve, with the workflow call above it as parent', async () => {
    deployed.length = 0;
    const requests: ApprovalRequest[] = [];
    const result = await run([{ _id: 'top', _tool: 'ship', env: 'prod', _outputPath: '†state.x' }], {
      tools: [deploy, ship],
      approve: (request) => {
        requests.push(request);
        return true;
      },
    });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ x: 'deployed prod' });
    const [asked] = calls(requests);
    expect(asked).toMatchObject({ call: 'd', tool: 'deploy', args: { env: 'prod' } });
    expect(asked!.parent).toEqual([{ call: 'top', tool: 'ship' }]);
    expect(asked!.plan!.calls.map((c) => c.id)).toEqual(['d']);
  });

  it('turned down: the inner call, the workflow call and the run end rejected; readers do not run', async () => {
    deployed.length = 0;
    const result = await run(
      [
        { _id: 'top', _tool: 'ship', env: 'prod', _outputPath: '†state.x' },
        { _id: 'after', _tool: 'echo', text: '†state.x', _outputPath: '†state.y' },
      ],
      {
        tools: [deploy, ship, echo],
        approve: (request) =>
          request.kind === 'call' ? { approved: false, feedback: 'not on a Friday' } : true,
      },
    );
    expect(deployed).toEqual([]);
    expect(result.status).toBe('rejected');
    const [top, after] = result.calls;
    expect(top).toMatchObject({ status: 'rejected', handled: false, error: { code: 'REJECTED' } });
    expect(top!.error!.message).toBe(
      `workflow 'ship': its call "d" (tool "deploy") was rejected: the call 'd' was rejected; feedback: not on a Friday`,
    );
    // As after a rejected call at top level: what it would have written is missing.
    expect(after).toMatchObject({ status: 'skipped', missing: ['†state.x'] });
  });

  it('turned down: not retried, even when the workflow has retries; not sent to an error alternative', async () => {
    let asked = 0;
    const retried: Tool = { ...ship, name: 'shipRetried', retries: 3, errorBranch: true };
    const result = await run(
      [{ _id: 'top', _tool: 'shipRetried', env: 'prod', _outputPath: '†state.ok || †state.err' }],
      {
        tools: [deploy, retried],
        approve: () => {
          asked++;
          return false;
        },
      },
    );
    expect(asked).toBe(1);
    expect(result.calls[0]).toMatchObject({ status: 'rejected', attempts: 1, handled: false, branch: null });
    expect(result.state).toEqual({});
  });

  it('nested: a workflow in a workflow run per element, the chain and the element in parent', async () => {
    deployed.length = 0;
    const requests: ApprovalRequest[] = [];
    const result = await run(
      [{ _id: 'top', _tool: 'release', envs: ['eu', 'us'], _outputPath: '†state.x' }],
      {
        tools: [deploy, ship, release],
        approve: (request) => {
          requests.push(request);
          return true;
        },
      },
    );
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ x: ['deployed eu', 'deployed us'] });
    const asked = calls(requests)
      .map((r) => ({ env: r.args.env, parent: r.parent }))
      .sort((a, b) => String(a.env).localeCompare(String(b.env)));
    expect(asked).toEqual([
      {
        env: 'eu',
        parent: [
          { call: 'top', tool: 'release' },
          { call: 's', tool: 'ship', element: 0 },
        ],
      },
      {
        env: 'us',
        parent: [
          { call: 'top', tool: 'release' },
          { call: 's', tool: 'ship', element: 1 },
        ],
      },
    ]);
  });

  it('nested, one element turned down: the for-each call and each workflow call above it end rejected', async () => {
    const result = await run(
      [{ _id: 'top', _tool: 'release', envs: ['eu', 'us'], _outputPath: '†state.x' }],
      {
        tools: [deploy, ship, release],
        approve: (request) => request.kind === 'call' && request.args.env === 'eu',
      },
    );
    expect(result.status).toBe('rejected');
    expect(result.calls[0]).toMatchObject({ status: 'rejected', error: { code: 'REJECTED' } });
    expect(result.calls[0]!.error!.message).toBe(
      `workflow 'release': its call "s" (tool "ship") was rejected: workflow 'ship': its call "d" (tool "deploy") was rejected`,
    );
    expect(result.state).toEqual({});
  });
});

describe('a workflow whose own plan is lazy', () => {
  it('asks for its plan with its parent each time it runs; a no rejects the workflow call', async () => {
    const careful: Tool = {
      name: 'careful',
      plan: {
        type: 'plan',
        mode: 'lazy',
        plan: [{ _id: 'e', _tool: 'echo', text: '†input.t', _outputPath: '†state.o' }],
      },
      output: '†state.o',
    };
    const requests: ApprovalRequest[] = [];
    const result = await run([{ _id: 'c', _tool: 'careful', t: 'hi', _outputPath: '†state.r' }], {
      tools: [echo, careful],
      approve: (request) => {
        requests.push(request);
        return false;
      },
    });
    expect(requests.map((r) => [r.kind, r.parent])).toEqual([['plan', [{ call: 'c', tool: 'careful' }]]]);
    expect(result.status).toBe('rejected');
    expect(result.calls[0]).toMatchObject({ status: 'rejected', error: { code: 'REJECTED' } });
  });
});

describe('a _forEach call over a needsApproval tool', () => {
  it('is asked about once, with the arguments of every element; a no runs none of them', async () => {
    deployed.length = 0;
    const requests: ApprovalRequest[] = [];
    const plan = [
      {
        _id: 'each',
        _tool: 'deploy',
        _forEach: '†input.envs',
        env: '†item',
        n: '†index',
        _outputPath: '†state.x',
      },
    ];
    const result = await run(plan, {
      tools: [deploy],
      input: { envs: ['eu', 'us', 'ap'] },
      approve: (request) => {
        requests.push(request);
        return false;
      },
    });
    expect(requests).toHaveLength(1);
    const [asked] = calls(requests);
    expect(asked!.call).toBe('each');
    expect(asked!.elements).toEqual([
      { env: 'eu', n: 0 },
      { env: 'us', n: 1 },
      { env: 'ap', n: 2 },
    ]);
    // The request's arguments stay as they were asked about, `_forEach` included.
    expect(asked!.args).toEqual({ _forEach: ['eu', 'us', 'ap'], env: '†item', n: '†index' });
    expect(deployed).toEqual([]);
    expect(result.calls[0]!.status).toBe('rejected');
  });

  it('approved once, runs every element', async () => {
    deployed.length = 0;
    let asked = 0;
    const result = await run(
      [{ _tool: 'deploy', _forEach: '†input.envs', env: '†item', _outputPath: '†state.x' }],
      {
        tools: [deploy],
        input: { envs: ['eu', 'us'] },
        approve: () => {
          asked++;
          return true;
        },
      },
    );
    expect(asked).toBe(1);
    expect(result.state).toEqual({ x: ['deployed eu', 'deployed us'] });
  });
});

describe('events from inside a workflow', () => {
  it('carry the chain of calls above them (parent), with the element under a _forEach; the run’s own carry none', async () => {
    const events: RunEvent[] = [];
    await run([{ _id: 'top', _tool: 'release', envs: ['eu', 'us'], _outputPath: '†state.x' }], {
      tools: [deploy, ship, release],
      approve: () => true,
      onEvent: (event) => events.push(event),
    });
    const parentOf = (e: RunEvent) => (e as Partial<WorkflowRunEvent>).parent;
    const own = events.filter((e) => parentOf(e) === undefined);
    expect(own.every((e) => e.type !== 'call:start' || e.call === 'top')).toBe(true);
    const deploys = events.filter((e): e is WorkflowRunEvent => e.type === 'call:end' && e.tool === 'deploy');
    expect(deploys.map((e) => e.parent).sort((a, b) => a[1]!.element! - b[1]!.element!)).toEqual([
      [
        { call: 'top', tool: 'release' },
        { call: 's', tool: 'ship', element: 0 },
      ],
      [
        { call: 'top', tool: 'release' },
        { call: 's', tool: 'ship', element: 1 },
      ],
    ]);
    // parentCall is the nearest call's ToolContext.toolCallId, as before.
    expect(deploys.map((e) => e.parentCall).sort()).toEqual(['s[0]', 's[1]']);
    const asked = events.filter((e) => e.type === 'approval:requested' && parentOf(e) !== undefined);
    expect(asked).toHaveLength(2);
    const shipEnd = events.find((e) => e.type === 'call:end' && e.call === 's')!;
    expect(parentOf(shipEnd)).toEqual([{ call: 'top', tool: 'release' }]);
  });
});

describe("a workflow's sub-run keeps the run's options", () => {
  /** A plan with a compile warning: two calls write †state.out (W_MULTIPLE_WRITERS). */
  const warned: Tool = {
    name: 'warned',
    plan: [
      { _tool: 'echo', text: 'a', _outputPath: '†state.out' },
      { _tool: 'echo', text: 'b', _outputPath: '†state.out' },
    ],
    output: '†state.out',
  };

  it('strict: the warning of a workflow’s plan is an error; the workflow call fails and its plan never runs', async () => {
    const lenient = await run([{ _tool: 'warned', _outputPath: '†state.r' }], { tools: [echo, warned] });
    expect(lenient.state).toEqual({ r: 'b' });
    const ran: unknown[] = [];
    const counted: Tool = { ...echo, execute: (args) => ran.push(args) };
    const strict = await run([{ _tool: 'warned', _outputPath: '†state.r' }], {
      tools: [counted, warned],
      strict: true,
    });
    expect(ran).toEqual([]);
    expect(strict.status).toBe('failed');
    expect(strict.calls[0]!.error).toMatchObject({ code: 'INVALID_PLAN' });
    expect(strict.calls[0]!.error!.message).toMatch(
      /^workflow 'warned': its plan cannot run: .*W_MULTIPLE_WRITERS/,
    );
  });

  it('limits: a _forEach inside is bounded by the run’s maxForEach', async () => {
    const each: Tool = {
      name: 'each',
      plan: [{ _tool: 'echo', _forEach: '†input.xs', text: '†item', _outputPath: '†state.out' }],
      output: '†state.out',
    };
    const plan = [{ _tool: 'each', xs: [1, 2, 3], _outputPath: '†state.r' }];
    const unbounded = await run(plan, { tools: [echo, each] });
    expect(unbounded.state).toEqual({ r: [1, 2, 3] });
    const bounded = await run(plan, { tools: [echo, each], limits: { maxForEach: 2 } });
    expect(bounded.status).toBe('failed');
    expect(bounded.calls[0]!.error).toMatchObject({ code: 'LIMIT' });
    expect(bounded.calls[0]!.error!.message).toContain('the limit is 2');
  });

  it('timeoutMs: a call inside without a limit of its own gets the run’s', async () => {
    const hang: Tool = {
      name: 'hang',
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal.addEventListener('abort', () => reject(abortSignal.reason as Error), { once: true });
        }),
    };
    // The workflow call itself has no limit (0): only the call inside can time out.
    const waits: Tool = {
      name: 'waits',
      timeoutMs: 0,
      plan: [{ _id: 'h', _tool: 'hang', _outputPath: '†state.x' }],
      output: '†state.x',
    };
    const result = await run([{ _tool: 'waits', _outputPath: '†state.y' }], {
      tools: [hang, waits],
      timeoutMs: 20,
    });
    expect(result.status).toBe('failed');
    expect(result.calls[0]!.error).toMatchObject({ code: 'TIMEOUT' });
    expect(result.calls[0]!.error!.message).toContain('its call "h" (tool "hang")');
  });

  it('failFast: after a call inside fails, nothing more starts inside', async () => {
    const started: string[] = [];
    const fail: Tool = {
      name: 'fail',
      execute: () => {
        throw new Error('broken');
      },
    };
    const note: Tool = {
      name: 'note',
      execute: (args) => {
        started.push(String(args.text));
        return args.text;
      },
    };
    // `late` reads nothing the failed call writes: only fail-fast stops it (after `first`, in
    // array order, as both are ready at once and `first` fails as it starts).
    const flow: Tool = {
      name: 'flow',
      plan: [
        { _id: 'first', _tool: 'fail', _outputPath: '†state.a' },
        { _id: 'late', _tool: 'note', text: 'late', _outputPath: '†state.b' },
      ],
      output: '†state.b',
    };
    const plan = [{ _tool: 'flow', _outputPath: '†state.r' }];
    await run(plan, { tools: [fail, note, flow] });
    expect(started).toEqual(['late']);
    started.length = 0;
    const result = await run(plan, { tools: [fail, note, flow], failFast: true });
    expect(started).toEqual([]);
    expect(result.status).toBe('failed');
  });
});

describe('ToolContext.element', () => {
  it('is the position of the element a _forEach call runs, and absent for a plain call', async () => {
    const seen: [string, number | undefined][] = [];
    const probe: Tool = {
      name: 'probe',
      execute: (_args, context) => {
        seen.push([context.toolCallId, context.element]);
        return null;
      },
    };
    await run(
      [
        { _id: 'each', _tool: 'probe', _forEach: '†input.xs', x: '†item' },
        { _id: 'one', _tool: 'probe' },
      ],
      { tools: [probe], input: { xs: ['a', 'b'] } },
    );
    expect(seen.sort()).toEqual([
      ['each[0]', 0],
      ['each[1]', 1],
      ['one', undefined],
    ]);
  });
});
