/**
 * One agent the server runs (`POST /api/agents`): a PlanAgent in plan mode over the server's
 * tools and model, with its own plan file (named by its id) and todo list; its plan approvals
 * and the calls its policy asks about wait on the approval desk. It plans, then (once its plan
 * is approved) carries the plan out, and ends with the model's answer.
 */
import { type Message, PlanAgent, type PlanModeSetup } from '../agent/index.js';
import type { ApprovalResponse } from '../run/index.js';
import type { LoopEnding } from '../tools/index.js';
import type { ApprovalDesk } from './approval-desk.js';
import { callRequestFields, markdownPlanFields } from './approval-views.js';
import { HttpError } from './http-error.js';
import type { ResolvedServeOptions } from './serve-options.js';

/** Where an agent is: its loop's phase, or how it ended. */
export type AgentStatus =
  'planning' | 'executing' | 'answered' | 'max_turns' | 'ended' | 'failed' | 'cancelled';

/** The reason an exit asked for over the API gives. */
export const API_EXIT_REASON = 'plan mode exit asked for over the API: carry out this plan?';

export class AgentRecord {
  readonly createdAt = new Date().toISOString();
  status: AgentStatus = 'planning';
  text = '';
  error: string | undefined;
  /** Which tool ended the loop (`endLoop()`), when one did: the status is then `ended`. */
  endedBy: LoopEnding | undefined;
  readonly #agent: PlanAgent;
  readonly #setup: PlanModeSetup;
  readonly #abort = new AbortController();
  readonly done: Promise<void>;

  constructor(
    readonly id: string,
    readonly task: string,
    options: ResolvedServeOptions,
    readonly desk: ApprovalDesk,
    readonly onChange: () => void,
  ) {
    const ask = (fields: Parameters<ApprovalDesk['ask']>[1]): Promise<ApprovalResponse> => {
      const asked = desk.ask(id, fields);
      onChange();
      return asked;
    };
    this.#agent = new PlanAgent({
      provider: options.provider!,
      tools: options.tools,
      planMode: {
        planFile: `${id}.md`,
        ...(options.plansDir !== undefined && { plansDir: options.plansDir }),
      },
      approvePlan: (request) => ask(markdownPlanFields(request, id)),
      approveTool: (request) => ask(callRequestFields(request, { agent: id })),
      signal: this.#abort.signal,
      onEvent: () => undefined,
    });
    this.#setup = this.#agent.planMode!;
    this.#setup.latch.subscribe(() => onChange());
    this.done = this.#work();
  }

  async #work(): Promise<void> {
    const messages: Message[] = [{ role: 'user', content: this.task }];
    try {
      const planned = await this.#agent.plan(messages);
      this.text = planned.text;
      if (planned.status !== 'planned') {
        this.status = planned.status;
        this.endedBy = planned.endedBy;
        return;
      }
      this.status = 'executing';
      this.onChange();
      const executed = await this.#agent.execute(messages);
      this.text = executed.text;
      this.status = executed.status;
      this.endedBy = executed.endedBy;
    } catch (error) {
      this.status = this.#abort.signal.aborted ? 'cancelled' : 'failed';
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.desk.dropOwner(this.id);
      this.onChange();
    }
  }

  get ended(): boolean {
    return !['planning', 'executing'].includes(this.status);
  }

  /** `POST .../plan-mode/enter`: the latch goes to planning (mutating tools are held back). */
  enter(): { latch: string; changed: boolean } {
    const changed = this.#setup.latch.enter();
    return { latch: this.#setup.latch.state, changed };
  }

  /**
   * `POST .../plan-mode/exit`: asks for approval of the plan (the text given, else the latch's,
   * else the plan file's); a yes moves the latch to executing with it, a no leaves it planning.
   * @throws {HttpError} 409 when the latch is not planning.
   */
  async exit(given: string | undefined): Promise<{ approval: string; plan: string }> {
    if (!this.#setup.latch.isPlanning)
      throw new HttpError(
        409,
        'conflict',
        `agent ${this.id} is not planning (its latch is '${this.#setup.latch.state}')`,
      );
    const plan = given ?? this.#setup.latch.plan ?? (await this.#setup.planFile.read()) ?? '';
    const { id, answer: answered } = this.desk.hold(this.id, {
      ...markdownPlanFields({ kind: 'plan', plan, reason: API_EXIT_REASON }, this.id),
      file: this.#setup.planFile.path,
    });
    this.onChange();
    void answered.then((answer) => {
      const approved = answer === true || (typeof answer === 'object' && answer.approved);
      if (approved && this.#setup.latch.isPlanning) this.#setup.latch.exit(plan);
    });
    return { approval: id, plan };
  }

  /** `GET /api/agents/:id`. */
  async detail(): Promise<Record<string, unknown>> {
    let planFile: string | null = null;
    try {
      planFile = await this.#setup.planFile.read();
    } catch {
      // A plan file closed (the agent ended and the server is closing) reads as none.
    }
    return {
      ...this.summary(),
      latch: this.#setup.latch.state,
      plan: this.#setup.latch.plan,
      planFile: { path: this.#setup.planFile.path, content: planFile },
      todos: this.#setup.todos.items,
      text: this.text,
      ...(this.endedBy !== undefined && { endedBy: this.endedBy }),
      ...(this.error !== undefined && { error: this.error }),
    };
  }

  summary(): Record<string, unknown> {
    return {
      id: this.id,
      task: this.task,
      status: this.status,
      latch: this.#setup.latch.state,
      createdAt: this.createdAt,
    };
  }

  /** Cancels the agent and waits for it; its plan folder is released. */
  async close(): Promise<void> {
    this.#abort.abort();
    await this.done;
    this.#setup.close();
  }

  /** Releases the plan folder of an agent that ended (forgotten to make room). */
  release(): void {
    this.#setup.close();
  }
}
