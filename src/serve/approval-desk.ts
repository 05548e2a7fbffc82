/**
 * Approvals held for a person instead of asked on a terminal: each request a run or an agent
 * makes waits here, listed by `GET /api/approvals`, until `POST /api/approvals/:id` answers it
 * (once: a second answer is refused) or what asked goes away (its run ended, the server closed).
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalResponse } from '../run/index.js';
import { HttpError } from './http-error.js';

/** A request as the API shows it: `id`, `kind`, who asked, and the request's own fields. */
export interface ApprovalView extends RequestFields {
  readonly id: string;
  readonly createdAt: string;
}

/** What the desk holds for one request beside its view. */
export interface HeldRequest {
  readonly view: ApprovalView;
  /** The run or agent that asked: its pending requests go when it ends. */
  readonly owner: string;
  /** True when a yes may carry an edited plan (a lazy run's plan). */
  readonly editable: boolean;
  /** The dry-run report of a plan request, made when first asked for. */
  readonly report?: () => string;
}

/** A request's own fields: what the desk adds is its id and time. */
export interface RequestFields {
  readonly kind: 'plan' | 'call';
  readonly [field: string]: unknown;
}

/** How a request may be answered, and its report. */
export interface HoldOptions {
  /** A yes may carry an edited plan. @default false */
  readonly editable?: boolean;
  /** Makes the dry-run report of a plan request. @default none */
  readonly report?: () => string;
}

interface Pending extends HeldRequest {
  readonly settle: (response: ApprovalResponse) => void;
}

/** Most characters of feedback taken with an answer. */
export const MAX_FEEDBACK_LENGTH = 10_000;

export class ApprovalDesk {
  readonly #pending = new Map<string, Pending>();
  /** Ids answered (or dropped), so a late second answer is a 409, not a 404; bounded. */
  readonly #answered = new Set<string>();
  readonly #maxAnswered: number;
  readonly #onChange: () => void;

  constructor(options: { readonly maxAnswered: number; readonly onChange: () => void }) {
    this.#maxAnswered = options.maxAnswered;
    this.#onChange = options.onChange;
  }

  /** Holds a request until it is answered; the answer. */
  ask(owner: string, fields: RequestFields, extra: HoldOptions = {}): Promise<ApprovalResponse> {
    return this.hold(owner, fields, extra).answer;
  }

  /** Holds a request until it is answered: its id (given here, with its time) and the answer. */
  hold(
    owner: string,
    fields: RequestFields,
    extra: HoldOptions = {},
  ): { readonly id: string; readonly answer: Promise<ApprovalResponse> } {
    const id = randomUUID();
    const view: ApprovalView = {
      id,
      createdAt: new Date().toISOString(),
      ...fields,
      // Where the page reads the dry-run report (graph, scenarios, critical path) of a plan.
      ...(extra.report && { report: `/api/approvals/${id}/report` }),
    };
    const answer = new Promise<ApprovalResponse>((settle) => {
      this.#pending.set(id, {
        view,
        owner,
        editable: extra.editable === true,
        ...(extra.report && { report: extra.report }),
        settle,
      });
    });
    this.#onChange();
    return { id, answer };
  }

  /** The pending requests, oldest first. */
  list(): ApprovalView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /** @throws {HttpError} 404 for an id never held, 409 for one already answered. */
  get(id: string): HeldRequest {
    const pending = this.#pending.get(id);
    if (pending) return pending;
    throw this.#missing(id);
  }

  /**
   * Answers a request from a body `{ approved, feedback?, plan? }`, checked first: a bad body
   * answers nothing.
   * @throws {HttpError} 400 for a bad body, 404 unknown, 409 already answered.
   */
  answer(id: string, body: Record<string, unknown>): { approved: boolean; edited: boolean } {
    const pending = this.#pending.get(id);
    if (!pending) throw this.#missing(id);
    const { approved, feedback, plan } = body;
    if (typeof approved !== 'boolean')
      throw new HttpError(400, 'bad_request', 'an answer needs "approved": true or false');
    if (feedback !== undefined && (typeof feedback !== 'string' || feedback.length > MAX_FEEDBACK_LENGTH))
      throw new HttpError(
        400,
        'bad_request',
        `"feedback" must be a string of at most ${MAX_FEEDBACK_LENGTH} characters`,
      );
    if (plan !== undefined && !pending.editable)
      throw new HttpError(
        400,
        'bad_request',
        'only a lazy run\'s plan can be edited at approval; answer this request without "plan"',
      );
    if (plan !== undefined && !approved)
      throw new HttpError(400, 'bad_request', 'an edited "plan" goes with "approved": true');
    this.#forget(id);
    pending.settle({
      approved,
      ...(typeof feedback === 'string' && feedback.trim() !== '' && { feedback }),
      ...(plan !== undefined && { plan }),
    });
    return { approved, edited: plan !== undefined };
  }

  /** Answers no to every request of `owner` (it ended while they waited). */
  dropOwner(owner: string): void {
    for (const [id, pending] of this.#pending) {
      if (pending.owner !== owner) continue;
      this.#forget(id);
      pending.settle(false);
    }
  }

  /** Answers no to everything: the server is closing. */
  dropAll(): void {
    for (const [id, pending] of this.#pending) {
      this.#forget(id);
      pending.settle(false);
    }
  }

  #forget(id: string): void {
    this.#pending.delete(id);
    this.#answered.add(id);
    if (this.#answered.size > this.#maxAnswered) {
      // A Set iterates in insertion order: the oldest answer goes first.
      const oldest = this.#answered.values().next().value as string;
      this.#answered.delete(oldest);
    }
    this.#onChange();
  }

  #missing(id: string): HttpError {
    return this.#answered.has(id)
      ? new HttpError(409, 'already_answered', `approval ${id} was already answered`)
      : new HttpError(404, 'not_found', `no approval ${id}`);
  }
}
