/**
 * What the TypeScript blocks of README.md and docs/ may use without declaring it: the reader's
 * own values (their tools, their model provider, the plan text their model wrote, their
 * approval prompt), and what an earlier block on the same page made (the `agent`, the `result`).
 * Each is typed as planmode's API would have it, so a block that misuses one fails to compile
 * like a user's file would. The package's own functions are not here: a block imports them.
 *
 * Written into the scratch project beside the blocks as `snippet-context.d.ts`
 * (test/package/install.test.ts); kept as text here so that the repository's own type check does
 * not see its globals.
 */
export const SNIPPET_CONTEXT = `import type { Approve, CompiledPlan, RunResult, ToolRegistry, Tool } from 'planmode';
import type { ToolManifest } from 'planmode/import';
import type {
  GuardedTools,
  Message,
  ModelProvider,
  ModelToolCall,
  PermissionPolicy,
  PlanAgent,
  PlanAgentOptions,
  SolveResult,
  TodoPlanHooks,
} from 'planmode/agent';

/** A key-value store of the reader's (a file, Redis, a database row). */
interface ReadersStore {
  put(text: string): Promise<void>;
  get(): Promise<string>;
}

declare global {
  // The reader's tools and model.
  const tools: ToolRegistry;
  const myTools: readonly Tool[];
  const provider: ModelProvider;
  const readFile: Tool;
  const editFile: Tool;
  const writeFile: Tool;
  const grepSearch: Tool;
  const grepFiles: Tool;
  const searchTools: Tool[];
  const search: Tool;
  const read: Tool;
  const write: Tool;
  const writeReport: Tool;
  const checkBillingHistory: Tool;
  const issueRefund: Tool;
  const escalateToSupervisor: Tool;
  // Text the reader's model wrote, or their files hold.
  const planText: string;
  const text: string;
  const modelPlanText: string;
  const goldPlanText: string;
  const manifestText: string;
  const manifest: ToolManifest;
  const goal: string;
  const modelDeltas: AsyncIterable<string>;
  const messages: Message[];
  const toolCall: ModelToolCall;
  const paymentPlan: CompiledPlan;
  const planA: CompiledPlan;
  const planB: CompiledPlan;
  function searchApi(query: string): Promise<unknown>;
  const plan: CompiledPlan;
  const store: ReadersStore;
  // The reader's way of asking a person, and their hooks.
  const approve: Approve;
  const approvePlan: PlanAgentOptions['approvePlan'];
  const hooks: TodoPlanHooks;
  function startCall(call: unknown): void;
  function askAPerson(question: unknown): Promise<boolean>;
  function askUser(question: unknown): Promise<boolean>;
  // What an earlier block on the page made.
  const agent: PlanAgent;
  const policy: PermissionPolicy;
  const guarded: GuardedTools;
  const result: SolveResult & RunResult;
}

export {};
`;
