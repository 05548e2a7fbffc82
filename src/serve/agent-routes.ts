/**
 * The agent endpoints, AgentScope's plan-mode admin API over planmode's PlanAgent: start an
 * agent with a task, read its latch, plan file and todos, and enter or exit plan mode (an exit
 * is a pending approval, answered like any other). Without a model provider they answer 404.
 */
import { randomUUID } from 'node:crypto';
import { AgentRecord } from './agent-record.js';
import type { ApprovalDesk } from './approval-desk.js';
import { asObject, type BodyBounds, onlyKeys, readJsonBody } from './http-body.js';
import { HttpError, sendJson } from './http-error.js';
import type { Router } from './router.js';
import type { ResolvedServeOptions } from './serve-options.js';

/** Most characters of a task, and of a plan given to exit. */
export const MAX_TASK_LENGTH = 100_000;

export class AgentRegistry {
  readonly #agents = new Map<string, AgentRecord>();

  constructor(
    readonly options: ResolvedServeOptions,
    readonly desk: ApprovalDesk,
    readonly onChange: () => void,
  ) {}

  start(value: unknown): AgentRecord {
    this.#needsModel();
    const body = asObject(value, 'POST /api/agents');
    onlyKeys(body, ['task'], 'POST /api/agents');
    const task = body.task;
    if (typeof task !== 'string' || task.trim() === '' || task.length > MAX_TASK_LENGTH)
      throw new HttpError(
        400,
        'bad_request',
        `"task" must be a non-empty string of at most ${MAX_TASK_LENGTH} characters`,
      );
    this.#makeRoom();
    const id = randomUUID();
    const record = new AgentRecord(id, task, this.options, this.desk, this.onChange);
    this.#agents.set(id, record);
    this.onChange();
    return record;
  }

  get(id: string): AgentRecord {
    this.#needsModel();
    const record = this.#agents.get(id);
    if (!record) throw new HttpError(404, 'not_found', `no agent ${id}`);
    return record;
  }

  list(): Record<string, unknown>[] {
    this.#needsModel();
    return [...this.#agents.values()].map((a) => a.summary());
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#agents.values()].map((a) => a.close()));
  }

  #needsModel(): void {
    if (this.options.provider === undefined)
      throw new HttpError(
        404,
        'no_model',
        'this server runs no agents: start it with a model (--model, or the provider option)',
      );
  }

  #makeRoom(): void {
    if (this.#agents.size < this.options.maxRuns) return;
    for (const [id, record] of this.#agents) {
      if (!record.ended) continue;
      record.release();
      this.#agents.delete(id);
      return;
    }
    throw new HttpError(
      503,
      'too_many_runs',
      `${this.#agents.size} agents are going on (maxRuns); wait for one to end`,
    );
  }
}

export interface AgentRouteParts {
  readonly agents: AgentRegistry;
  readonly bounds: BodyBounds;
}

export function addAgentRoutes(router: Router, { agents, bounds }: AgentRouteParts): void {
  router
    .on('POST', '/api/agents', async (request, response) => {
      const record = agents.start(await readJsonBody(request, bounds));
      sendJson(response, 201, { id: record.id }, { location: `/api/agents/${record.id}` });
    })
    .on('GET', '/api/agents', (_request, response) => sendJson(response, 200, { agents: agents.list() }))
    .on('GET', '/api/agents/:id', async (_request, response, [id]) =>
      sendJson(response, 200, await agents.get(id!).detail()),
    )
    .on('POST', '/api/agents/:id/plan-mode/enter', (_request, response, [id]) =>
      sendJson(response, 200, agents.get(id!).enter()),
    )
    .on('POST', '/api/agents/:id/plan-mode/exit', async (request, response, [id]) => {
      const record = agents.get(id!);
      const body = asObject(await readJsonBody(request, bounds), 'POST /api/agents/:id/plan-mode/exit');
      onlyKeys(body, ['plan'], 'POST /api/agents/:id/plan-mode/exit');
      if (body.plan !== undefined && (typeof body.plan !== 'string' || body.plan.length > MAX_TASK_LENGTH))
        throw new HttpError(
          400,
          'bad_request',
          `"plan" must be a string of at most ${MAX_TASK_LENGTH} characters`,
        );
      sendJson(response, 202, await record.exit(body.plan as string | undefined));
    });
}
