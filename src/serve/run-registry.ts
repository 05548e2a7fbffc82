/**
 * The runs the server started (`POST /api/runs`): each compiled first (a plan with errors is
 * refused with its diagnostics and starts nothing), then run with its approvals held on the
 * desk. Bounded: past `maxRuns` the oldest run that ended is forgotten, and a new one is refused
 * while every run kept is still going.
 */
import { randomUUID } from 'node:crypto';
import { compile, type CompiledPlan } from '../compile/index.js';
import { isPlanValidationError } from '../errors.js';
import type { JsonObject, PlanInput } from '../language/document.js';
import type { ApprovalRequest, ApprovalResponse } from '../run/index.js';
import { run } from '../run/index.js';
import type { ApprovalDesk } from './approval-desk.js';
import { callRequestFields, planRequestFields } from './approval-views.js';
import { asObject, onlyKeys } from './http-body.js';
import { HttpError } from './http-error.js';
import { RunRecord } from './run-record.js';
import type { ResolvedServeOptions } from './serve-options.js';

const RUN_BODY_KEYS = ['plan', 'input', 'state', 'mode'];

export class RunRegistry {
  readonly #runs = new Map<string, RunRecord>();
  readonly #settled = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();

  constructor(
    readonly options: ResolvedServeOptions,
    readonly desk: ApprovalDesk,
    readonly onChange: () => void,
  ) {}

  /**
   * Starts a run from `{ plan, input?, state?, mode? }`.
   * @throws {HttpError} 400 for a bad body, 422 for a plan with errors, 503 when full.
   */
  start(value: unknown): RunRecord {
    const body = asObject(value, 'POST /api/runs');
    onlyKeys(body, RUN_BODY_KEYS, 'POST /api/runs');
    if (body.plan === undefined)
      throw new HttpError(
        400,
        'bad_request',
        'POST /api/runs needs "plan": a plan document, a JSON array of calls, or its text',
      );
    const input = jsonObject(body.input, 'input');
    const state = jsonObject(body.state, 'state');
    const mode = body.mode;
    if (mode !== undefined && mode !== 'eager' && mode !== 'lazy')
      throw new HttpError(400, 'bad_request', '"mode" must be "eager" or "lazy"');
    const { tools, limits } = this.options;
    const compiled = compile(body.plan as PlanInput, {
      tools,
      limits,
      ...(input && { input }),
      ...(state && { state }),
      ...(mode && { mode }),
    });
    if (!compiled.ok || !compiled.plan) {
      throw new HttpError(422, 'invalid_plan', 'the plan has errors; nothing ran', {
        diagnostics: compiled.diagnostics,
      });
    }
    this.#makeRoom();
    const id = randomUUID();
    const plan = compiled.plan;
    const record = new RunRecord(id, plan.mode, plan, this.options.maxEventsPerRun);
    this.#runs.set(id, record);
    const context = { run: id, tools, limits, input, state, document: body.plan };
    const approve = async (request: ApprovalRequest): Promise<ApprovalResponse> => {
      record.waiting(1);
      this.onChange();
      try {
        if (request.kind === 'call') return await this.desk.ask(id, callRequestFields(request, { run: id }));
        const { fields, report } = planRequestFields(
          request as typeof request & { plan: CompiledPlan },
          context,
        );
        return await this.desk.ask(id, fields, { editable: true, ...(report && { report }) });
      } finally {
        record.waiting(-1);
        this.onChange();
      }
    };
    const running = run(plan, {
      tools,
      limits,
      runId: id,
      signal: this.#abort.signal,
      approve,
      onEvent: (event) => record.onEvent(event),
      ...(input && { input }),
      ...(state && { state }),
      ...(this.options.latent && { latent: this.options.latent }),
    }).then(
      (result) => record.finish(result),
      (error: unknown) => record.fail(errorJson(error)),
    );
    const settled = running.finally(() => {
      this.desk.dropOwner(id);
      this.#settled.delete(settled);
      this.onChange();
    });
    this.#settled.add(settled);
    this.onChange();
    return record;
  }

  /** @throws {HttpError} 404 for an id that names no run kept. */
  get(id: string): RunRecord {
    const record = this.#runs.get(id);
    if (!record) throw new HttpError(404, 'not_found', `no run ${id}`);
    return record;
  }

  list(): Record<string, unknown>[] {
    return [...this.#runs.values()].map((r) => r.summary());
  }

  /** Cancels every run and waits for them to end. */
  async close(): Promise<void> {
    this.#abort.abort();
    this.desk.dropAll();
    await Promise.allSettled([...this.#settled]);
    for (const record of this.#runs.values()) record.closeStreams();
  }

  #makeRoom(): void {
    if (this.#runs.size < this.options.maxRuns) return;
    for (const [id, record] of this.#runs) {
      if (!record.ended) continue;
      record.closeStreams();
      this.#runs.delete(id);
      return;
    }
    throw new HttpError(
      503,
      'too_many_runs',
      `${this.#runs.size} runs are going on (maxRuns); wait for one to end`,
    );
  }
}

function jsonObject(value: unknown, name: string): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'bad_request', `"${name}" must be a JSON object`);
  return value as JsonObject;
}

/** A run that threw (an edit that never compiled, a broken tool definition): its error as JSON. */
function errorJson(error: unknown): Record<string, unknown> {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : 'Error';
  return isPlanValidationError(error) ? { name, message, diagnostics: error.diagnostics } : { name, message };
}
