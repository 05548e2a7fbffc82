/**
 * The flags of `plan agent`, as commander hands them to agentCommand (agent.ts): every one a
 * string or a boolean as typed, read and checked there.
 */
import type { LimitFlags } from '../flags/limit-flags.js';
import type { McpFlags } from '../flags/mcp-servers.js';
import type { PlanSchemaFormat } from '../../agent/model.js';

export interface AgentFlags extends McpFlags, LimitFlags {
  /** The tools: an ES module exporting tools with execute functions. Required unless --mcp is given. */
  readonly tools?: string;
  /**
   * Most time the tools module may take to load, in ms.
   * @default '30000'
   */
  readonly loadTimeout?: string;
  /**
   * Tool-name patterns that are read-only in plan mode whatever their annotations say.
   * @default []
   */
  readonly readOnly?: readonly string[];
  /** `<provider>:<model>` (openai:, anthropic:, scripted:<file>). Required. */
  readonly model?: string;
  /**
   * The API's base URL (an OpenAI-compatible server such as vLLM, Ollama or llama.cpp).
   * @default the provider's own, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL
   */
  readonly baseUrl?: string;
  /**
   * The form of the plan schema sent to the model (openai: and scripted: providers).
   * @default json-schema
   */
  readonly schemaFormat?: PlanSchemaFormat;
  /**
   * Plan first with read-only tools, approve the plan, then carry it out.
   * @default false
   */
  readonly planMode?: boolean;
  /**
   * How each solution runs: eager (at once) or lazy (shown, dry-run and approved first). The
   * lazier of this and the --context file's plan message wins: `eager` cannot make a context
   * that says lazy eager (one line on stderr says so).
   * @default the context's mode, else 'eager'
   */
  readonly mode?: string;
  /**
   * Break the task into todos (approved like a plan), run each as its own agent turn and
   * reflect after each: continue, revise the todos, or finish (a todo plan).
   * @default false
   */
  readonly todos?: boolean;
  /**
   * Approve plans, lazy solutions and every call whose tool needs approval without asking; each
   * approval is one line on stderr (`approved by --yes: ...`).
   * @default false
   */
  readonly yes?: boolean;
  /**
   * Print one JSON object to stdout at the end, and no progress.
   * @default false
   */
  readonly json?: boolean;
  /**
   * Off a terminal, print each run event as one plain line on stderr before the run's summary.
   * @default false
   */
  readonly events?: boolean;
  /**
   * Most solutions asked for (without --plan-mode).
   * @default '5'
   */
  readonly maxIterations?: string;
  /**
   * A file in the plan language to start the plan loop from: input, state (with its schema),
   * a plan and tool messages (comments and trailing commas allowed).
   * @default undefined
   */
  readonly context?: string;
  /**
   * Instructions for the model, sent before the plan loop's own.
   * @default undefined
   */
  readonly systemPrompt?: string;
  /**
   * `name=value` pairs, one per `--budget`: maxCallsPerPlan, maxCalls, maxTurns, maxTokens,
   * maxWallMs (the plan loop's budget).
   * @default undefined (every budget at its default)
   */
  readonly budget?: readonly string[];
  /**
   * Most bytes of one model reply (the plan loop).
   * @default '1048576'
   */
  readonly maxReplyBytes?: string;
  /**
   * Most tool calls one model reply may make (`--plan-mode`).
   * @default '256'
   */
  readonly maxToolCallsPerTurn?: string;
  /**
   * Most bytes the conversation may hold when the model is asked again (`--plan-mode`).
   * @default '16777216'
   */
  readonly maxConversationBytes?: string;
  /** Every compile warning of a solution is an error, sent back for repair (the plan loop). @default false */
  readonly strict?: boolean;
  /**
   * A session file for the plan loop: saved after every turn (atomically), and resumed from
   * when it exists (one line on stderr says from which turn).
   * @default undefined: nothing is saved
   */
  readonly session?: string;
}
