/** The words the agent adds to a conversation, in one place so tests and docs can quote them. */

/** Injected (once) by PlanAgent.plan(). */
export const PLANNING_PROMPT = [
  'You are in plan mode. Investigate with the read-only tools you are offered, then write a plan:',
  'the steps, the files or systems each one touches, and how to check the result.',
  'Do not try to change anything yet: tools that change things are not available while planning.',
  'When the plan is ready, call exit_plan with the whole plan as `plan` (or answer with the plan',
  'as your text); a person approves it before anything runs.',
].join('\n');

/** The virtual tool that ends planning (PlanAgent.plan); answering in plain text ends it too. */
export const EXIT_PLAN_TOOL = {
  name: 'exit_plan',
  description:
    'Submit the finished plan for approval and leave plan mode. Call it once: with the whole plan as `plan`, or with no arguments when the text of this turn is the plan.',
  inputSchema: {
    type: 'object',
    properties: {
      plan: { type: 'string', description: 'The plan, in Markdown; default: the text of this turn' },
    },
    additionalProperties: false,
  },
} as const;

/**
 * What a plan-mode denial tells the model to do instead; the guard picks the one that names
 * only tools the model is offered.
 */
export const PLAN_MODE_ADVICE = {
  /** The plan tools are offered: plan_write and exit_plan_mode. */
  planTools: 'Describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval.',
  /** exit_plan_mode is offered, plan_write is not. */
  exitPlanMode: 'Describe the change in your plan and call exit_plan_mode to ask for approval.',
  /** PlanAgent.plan(): the virtual exit_plan. */
  exitPlan: 'Put the change in your plan and submit the plan with exit_plan to ask for approval.',
  /** No way out of plan mode is offered: someone else ends it. */
  finishPlanning: 'Do not call it while planning: finish planning first; it can run once plan mode is over.',
} as const;

/** The system prompt of solve(): the plan language in brief (calls, references, output paths). */
export const SOLVE_PROMPT = [
  'You solve tasks by writing a plan of tool calls as JSON: {"calls": [...], "output": ...}.',
  'Each call is an object with "_tool" (a tool name) and the tool\'s arguments.',
  'Results go into a shared state: "_outputPath": "†state.name" writes the result there;',
  '"†state.ok || †state.error" sends a plain result to the first path; add "_onError": "†state.error"',
  "to send the tool's failure to that path (without it, a failure fails the call).",
  'Arguments refer to data with strings: "†input.x" (the task input) or "†state.x" (a result).',
  'A call runs once everything it refers to exists; calls run in parallel where they can, except',
  'calls of tools that change something: each starts after every call before it in the plan, and',
  'the calls after it wait for it. "_after": ["id"] starts a call after others without data.',
  'You see the input, the state so far (with its schema when there is one: write where it has',
  'places), your previous plan with comments before each call saying how it ended and what it',
  'returned (its result, or its error, even when nothing was written to the state), and the',
  'calls that failed. Set "output" to the final answer once the state holds what the task asks',
  'for; until then set it to null and give the calls that are still needed. A call that changes',
  'something and already succeeded is not run again with the same arguments: its earlier',
  'result is reused.',
].join('\n');

/** The system prompt of a latent tool's answer. */
export const LATENT_PROMPT = [
  "You are a tool whose result is produced by you, the model. You get the tool's name,",
  'description and arguments; answer with {"value": <the result>} and nothing else.',
].join('\n');
