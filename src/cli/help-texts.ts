/** The help texts of the `plan` command and its subcommands (commander prints them after the options). */

export const EXIT_CODES_HELP = `
Exit codes:
  0   the plan is valid (warnings allowed) and the command did its job
  1   the plan has errors (diagnostics on stderr, or in the --json object)
  2   bad usage, or a plan, tools, input or state file that cannot be used
  70  an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)

Without --tools (or --mcp), tool names and arguments are not checked; without --input (or
an input message in the plan), †input reads are not: a note on stderr says so.`;

export const AGENT_HELP = `
API keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY (base URLs from OPENAI_BASE_URL /
ANTHROPIC_BASE_URL) and are never printed. Progress goes to stderr; the answer to stdout.

Each solution's run shows as plan run shows it: a live view on a terminal, a summary off one
(--events: every event before it).

Exit codes (those of plan run):
  0    done: the model gave its answer
  1    the model's plan never compiled, even after repairs
  2    bad usage: a missing flag, an unknown provider, no API key, tools that cannot be loaded
  3    failed: out of iterations or turns, or the model API failed
  4    rejected at approval: a plan, or a call whose tool needs approval (without a terminal,
       pass --yes to approve)
  5    a budget of the plan loop ran out (--budget: calls, turns, tokens, wall time)
  6    stalled: the model repeated a plan that had already run from the same state
  70   an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)
  130  interrupted (Ctrl-C)`;

export const RUN_EXIT_CODES_HELP = `
Exit codes:
  0    the run succeeded
  1    the plan has errors (diagnostics on stderr); nothing ran
  2    bad usage, or a plan, tools, input or state file that cannot be used
  3    the run failed, or --fail-fast stopped it, or a tool ended the process mid-run
  4    the plan or a call was rejected at approval
  70   an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)
  130  interrupted (Ctrl-C): running calls were cancelled

Output: on a terminal, a live view of the calls; off one, a summary when the run ends (calls
by status, each failure with its error, each skipped call with the value it lacked and why),
then the final state. --events adds every event before it; --json prints one object instead.

Approval: a lazy plan (--mode lazy, or "mode": "lazy" in the plan) is shown and asked about
on the terminal before anything runs, and so is each call whose tool has needsApproval.
Without a terminal to ask on, --yes approves (one line on stderr per approval: what it
approved, a call with its resolved arguments); otherwise they are rejected (exit 4). --mode
eager cannot make a plan that says "mode": "lazy" eager: the lazier mode wins. Time
spent at a prompt is reported apart from the run's own ("plus 8.00s waiting for approval").

Latent tools: in eager mode a latent call carries its result as _output (a latent call without
one is E_NO_OUTPUT, exit 1). In lazy mode the --tools module may export latent({ call, tool,
definition, args, signal }) (tool: the name), asked for each latent call's result after approval.`;

export const WORKER_HELP = `
Exit codes:
  0   stopped by Ctrl-C or SIGTERM, after finishing the jobs it was running
  2   bad usage, a tools module that cannot be used, or Redis cannot be reached
  70  an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)

Each job is one attempt of one call; its id, <runId>.<callId>, is the tool's ctx.toolCallId:
record side effects under it, and a job that a dead worker had started runs again as a no-op.`;

export const SIMULATE_EXIT_CODES_HELP = `
Exit codes:
  0  the plan is valid and no scenario has an argument error
  1  the plan has errors, or in some scenario a resolved argument fails its tool's
     inputSchema (E_SIM_ARGS): that call would fail when run
  2  bad usage, or a plan, tools, input or state file that cannot be used
  70 an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)

Nothing is executed: each tool's output is sampled from its outputSchema (seeded, so the
same plan gives the same simulation); a tool without one gives an unknown value that is
not type-checked.`;

export const IMPORT_EXIT_CODES_HELP = `
Exit codes:
  0  every sample was imported (warnings say what the format could not express)
  1  some rows could not be imported (each named with its line); the others were written
  2  bad usage, or a data or spec file that cannot be read at all
  70 an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)`;

export const ALL_EXIT_CODES_HELP = `
Exit codes:
  0    the plan is valid (warnings allowed) and the command did its job
  1    the plan has errors (diagnostics on stderr, or in the --json object)
  2    bad usage, or a plan, tools, input or state file that cannot be used
  3    plan run, plan agent: the run failed
  4    plan run, plan agent: rejected at approval
  5    plan agent: a budget of the plan loop ran out
  6    plan agent: stalled (the model repeated a plan that had already run)
  70   an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)
  130  plan run, plan agent: interrupted (Ctrl-C)

The command is installed as both plan and planmode. In a project that has planmode installed,
npx planmode validate plan.json runs it (npx plan would fetch an unrelated package). planmode is
not on the npm registry: install it from a git URL or a packed tarball (see the README).`;

export const SCHEMA_EXIT_CODES_HELP = `
Exit codes:
  0  the schema was printed
  2  bad usage, or a tools file or MCP server that cannot be used
  70 an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)`;

export const LOAD_TIMEOUT_HELP =
  'most time the --tools module may take to load (its top-level code and awaits); then exit 2 (default: 30000)';

export const LIMIT_HELP =
  'raise or lower a bound on untrusted input: maxCalls, maxDepth, maxTextLength, maxKeys, maxArrayIndex, maxDiagnostics or maxForEach (e.g. maxDepth=128); repeatable';

export const BUDGET_HELP =
  "the plan loop's budget: maxCallsPerPlan (1000), maxCalls (10000), maxTurns (100), maxTokens (2000000) or maxWallMs (3600000), e.g. maxWallMs=60000; repeatable";

export const MCP_HELP =
  'an MCP server to start over stdio ([name=]command line, split like a shell would but run without one); its tools join --tools; --rate/--tool-concurrency with its name set one quota for all its tools; repeatable';

export const EVAL_HELP = `
Exit codes:
  0  every gold sample was scored (whatever the scores)
  2  bad usage: a missing flag, a folder that cannot be read, a gold folder of more than
     100000 samples
  70 an internal error (a bug in planmode; PLAN_DEBUG=1 prints the stack)

Both plans of each sample run against the same mock tools made from the gold sample's
tools.json (each answer sampled from the tool's outputSchema, seeded by the tool and its
arguments). A sample wins when the predicted plan compiles against those tools, runs with no
failed call, and ends with the same final output as the gold plan. See docs/evaluation.md.`;

export const RATE_HELP =
  'at most limit calls of a tool (or MCP server) start in any ms milliseconds: --rate search=5/1000 (repeatable)';

export const TOOL_CONCURRENCY_HELP =
  'at most N calls of a tool (or MCP server) run at once: --tool-concurrency search=4 (repeatable)';
