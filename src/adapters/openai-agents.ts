/**
 * Function tools of the OpenAI Agents SDK (`tool({ name, description, parameters, execute })`
 * of `@openai/agents`) as planmode Tools. `execute` calls the tool's own `invoke(runContext,
 * inputJson, { signal })`, so its parsing, guard of the schema and timeout apply as under the SDK.
 *
 * Failures: under the SDK a tool's throw becomes a message for the model (its default
 * `errorFunction`); in a plan a failure must fail the call, so that message is turned back into
 * a failure. A tool with an `errorFunction` of your own keeps its answer as the output; one with
 * `errorFunction: null` throws, which fails the call with the error itself.
 *
 * The tools come out marked `annotationsTrusted: false`, as every adapter's do: plan mode
 * treats them as mutating unless a `readOnly` allowlist or a `trustAnnotations` function names
 * them.
 */
import type { JsonSchema, Tool, ToolContext } from '../tools/tool.js';
import { describeValue } from '../language/describe-value.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

/** The part of an Agents SDK `FunctionTool` this adapter uses. */
export interface OpenAIAgentsToolLike {
  readonly type: string;
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
  readonly outputSchema?: unknown;
  readonly invoke?: (
    runContext: never,
    input: string,
    details?: { signal?: AbortSignal },
  ) => Promise<unknown>;
  readonly needsApproval?: (...args: never[]) => unknown;
}

export interface FromOpenAIAgentsToolsOptions {
  /**
   * The `RunContext` each call gets: an object (`new RunContext(yourContext)`, when the tools use
   * its methods), or a function of the call's context.
   * @default `{ context: ctx.context }`: the run's `context` where the SDK would put yours
   */
  readonly runContext?: unknown;
}

/** The SDK's default errorFunction answer (agents-core tool.ts, defaultToolErrorFunction). */
const SDK_ERROR_PREFIX = 'An error occurred while running the tool. Please try again. Error: ';

/**
 * @throws {TypeError} for a tool that is not a function tool (hosted tools, computer and shell
 *   tools run elsewhere), two tools with one name, or a bad option.
 */
export async function fromOpenAIAgentsTools(
  tools: Iterable<OpenAIAgentsToolLike>,
  options: FromOpenAIAgentsToolsOptions = {},
): Promise<Tool[]> {
  if (
    tools === null ||
    typeof tools !== 'object' ||
    typeof (tools as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
    throw new TypeError(
      `fromOpenAIAgentsTools: tools must be an array of Agents SDK tools, not ${describeValue(tools)}`,
    );
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`fromOpenAIAgentsTools: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions('fromOpenAIAgentsTools', options, {
    runContext: 'object',
  } satisfies OptionSpec<FromOpenAIAgentsToolsOptions>);
  const runContextFor = (context: ToolContext): unknown =>
    typeof options.runContext === 'function'
      ? (options.runContext as (c: ToolContext) => unknown)(context)
      : (options.runContext ?? { context: context.context });
  const result: Tool[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (const tool of tools) {
    const where = `tools[${index++}]`;
    if (tool === null || typeof tool !== 'object') {
      throw new TypeError(`fromOpenAIAgentsTools: ${where} must be a tool, not ${describeValue(tool)}`);
    }
    const name = tool.name;
    if (tool.type !== 'function' || typeof tool.invoke !== 'function') {
      throw new TypeError(
        `fromOpenAIAgentsTools: ${where}${typeof name === 'string' ? ` ('${name}')` : ''} is a ${String(tool.type)} tool, not a function tool; only function tools run in a plan`,
      );
    }
    if (typeof name !== 'string' || name === '') {
      throw new TypeError(`fromOpenAIAgentsTools: ${where} has no name`);
    }
    if (seen.has(name)) throw new TypeError(`fromOpenAIAgentsTools: two tools are named '${name}'`);
    seen.add(name);
    const invoke = tool.invoke.bind(tool) as (
      runContext: unknown,
      input: string,
      details?: { signal?: AbortSignal },
    ) => Promise<unknown>;
    const outputSchema = isSchemaObject(tool.outputSchema) ? (tool.outputSchema as JsonSchema) : undefined;
    result.push({
      name,
      ...(typeof tool.description === 'string' && { description: tool.description }),
      ...(isSchemaObject(tool.parameters) && { inputSchema: tool.parameters as JsonSchema }),
      ...(outputSchema !== undefined && { outputSchema }),
      ...((await needsApproval(tool)) && { needsApproval: true }),
      annotationsTrusted: false,
      execute: async (args: Record<string, unknown>, context: ToolContext) => {
        const output = await invoke(runContextFor(context), JSON.stringify(args), {
          signal: context.abortSignal,
        });
        if (typeof output === 'string' && output.startsWith(SDK_ERROR_PREFIX)) {
          throw new Error(output.slice(SDK_ERROR_PREFIX.length));
        }
        // With an outputSchema, a string result is the JSON it describes (Responses API rule).
        if (outputSchema !== undefined && typeof output === 'string') {
          try {
            return JSON.parse(output) as unknown;
          } catch {
            return output;
          }
        }
        return output;
      },
    });
  }
  return result;
}

function isSchemaObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The SDK makes every `needsApproval` a function. `needsApproval: true|false` becomes one that
 * takes no arguments: asked once here. One of your own decides per input, and planmode asks per
 * tool, so such a tool asks every time.
 */
async function needsApproval(tool: OpenAIAgentsToolLike): Promise<boolean> {
  const decide = tool.needsApproval;
  if (typeof decide !== 'function') return false;
  if (decide.length > 0) return true;
  try {
    return (await (decide as () => unknown)()) === true;
  } catch {
    return true;
  }
}
