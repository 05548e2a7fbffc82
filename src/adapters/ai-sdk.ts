/**
 * AI SDK tools (`tool({ description, inputSchema, execute })` of the `ai` package, a record keyed
 * by name as `generateText` takes them) as planmode Tools.
 *
 * Schemas (zod 3 or 4, `jsonSchema()`, Standard Schema) become JSON Schema through the AI SDK's
 * own `asSchema`, so the model sees the schema it would see under the AI SDK. Before `execute`,
 * the arguments also go through the AI SDK schema's own validation, so zod defaults and
 * transforms apply as they would there.
 *
 * The tools come out marked `annotationsTrusted: false`, as every adapter's do: an SDK's tool
 * may wrap anyone's (an MCP server's, a package's), so plan mode treats it as mutating unless
 * a `readOnly` allowlist or a `trustAnnotations` function names it.
 */
import type { JsonSchema, Tool, ToolContext } from '../tools/tool.js';
import { describeValue } from '../language/describe-value.js';
import { checkOptions, type OptionSpec } from '../language/option-keys.js';

/** The part of an AI SDK `Tool` this adapter uses. */
export interface AiSdkToolLike {
  readonly type?: string;
  readonly description?: string;
  readonly title?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly needsApproval?: boolean | ((...args: never[]) => unknown);
  /** Called with the input and {@link AiSdkExecutionOptions} (typed loosely, so any AI SDK version's tools fit). */
  readonly execute?: (input: never, options: never) => unknown;
}

/** What the AI SDK passes to `execute` as its second argument. */
export interface AiSdkExecutionOptions {
  /** The call's id: the plan call's id. */
  readonly toolCallId: string;
  /** Aborted when the call times out or the run is cancelled. */
  readonly abortSignal: AbortSignal;
  /** The conversation so far: FromAiSdkToolsOptions.messages (a plan has none of its own). */
  readonly messages: unknown[];
  /**
   * RunOptions.context, as the AI SDK's experimental_context.
   * @default undefined
   */
  readonly experimental_context?: unknown;
}

export interface FromAiSdkToolsOptions {
  /**
   * The `messages` each `execute` is given (the AI SDK passes the conversation so far; a plan
   * has none of its own).
   * @default () => []
   */
  readonly messages?: (context: ToolContext) => unknown[];
}

interface AiSdkSchema {
  readonly jsonSchema: unknown;
  readonly validate?: (
    value: unknown,
  ) =>
    | { success: true; value: unknown }
    | { success: false; error: Error }
    | PromiseLike<{ success: true; value: unknown } | { success: false; error: Error }>;
}

/**
 * @param tools The tools by name, as `generateText({ tools })` takes them.
 * @throws {TypeError} for something that is not a tool, a provider-executed tool (the model's
 *   provider runs it, not a plan), or when the `ai` package cannot be loaded.
 */
export async function fromAiSdkTools(
  tools: Readonly<Record<string, AiSdkToolLike>>,
  options: FromAiSdkToolsOptions = {},
): Promise<Tool[]> {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(
      `fromAiSdkTools: tools must be an object of AI SDK tools by name, not ${describeValue(tools)}`,
    );
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`fromAiSdkTools: options must be an object, not ${describeValue(options)}`);
  }
  checkOptions('fromAiSdkTools', options, {
    messages: 'function',
  } satisfies OptionSpec<FromAiSdkToolsOptions>);
  if (options.messages !== undefined && typeof options.messages !== 'function') {
    throw new TypeError(
      `fromAiSdkTools: messages must be a function, not ${describeValue(options.messages)}`,
    );
  }
  const asSchema = await loadAsSchema();
  const messages = options.messages ?? (() => []);
  const result: Tool[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    if (tool === null || typeof tool !== 'object') {
      throw new TypeError(`fromAiSdkTools: '${name}' must be an AI SDK tool, not ${describeValue(tool)}`);
    }
    if (tool.type === 'provider') {
      throw new TypeError(
        `fromAiSdkTools: '${name}' is a provider-defined tool, which the model's provider runs, not a plan; leave it out`,
      );
    }
    if (tool.execute !== undefined && typeof tool.execute !== 'function') {
      throw new TypeError(`fromAiSdkTools: '${name}'.execute must be a function`);
    }
    const input =
      tool.inputSchema === undefined ? undefined : toSchema(asSchema, tool.inputSchema, name, 'inputSchema');
    const output =
      tool.outputSchema === undefined
        ? undefined
        : toSchema(asSchema, tool.outputSchema, name, 'outputSchema');
    const inputSchema = input ? await jsonSchemaOf(input, name, 'inputSchema') : undefined;
    const outputSchema = output ? await jsonSchemaOf(output, name, 'outputSchema') : undefined;
    const execute = tool.execute as ((input: unknown, options: AiSdkExecutionOptions) => unknown) | undefined;
    const description = tool.description ?? tool.title;
    result.push({
      name,
      ...(description !== undefined && { description }),
      ...(inputSchema !== undefined && { inputSchema }),
      ...(outputSchema !== undefined && { outputSchema }),
      ...(tool.title !== undefined && { annotations: { title: tool.title } }),
      annotationsTrusted: false,
      // A function decides per input; planmode asks per tool, so such a tool asks every time.
      ...(tool.needsApproval !== undefined && tool.needsApproval !== false && { needsApproval: true }),
      ...(execute && {
        execute: async (args: Record<string, unknown>, context: ToolContext) => {
          let value: unknown = args;
          if (input?.validate) {
            const checked = await input.validate(args);
            if (!checked.success) {
              throw new Error(`invalid arguments for '${name}': ${validationMessage(checked.error)}`, {
                cause: checked.error,
              });
            }
            value = checked.value;
          }
          const returned = await execute(value, {
            toolCallId: context.toolCallId,
            abortSignal: context.abortSignal,
            messages: messages(context),
            experimental_context: context.context,
          });
          return isAsyncIterable(returned) ? lastOf(returned) : returned;
        },
      }),
    });
  }
  return result;
}

type AsSchema = (schema: unknown) => AiSdkSchema;

async function loadAsSchema(): Promise<AsSchema> {
  try {
    const ai = (await import('ai')) as unknown as { asSchema: AsSchema };
    return ai.asSchema;
  } catch (error) {
    throw new TypeError(
      `fromAiSdkTools needs the AI SDK: install the 'ai' package (${(error as Error).message})`,
      { cause: error },
    );
  }
}

function toSchema(asSchema: AsSchema, schema: unknown, name: string, key: string): AiSdkSchema {
  try {
    return asSchema(schema);
  } catch (error) {
    throw new TypeError(
      `fromAiSdkTools: '${name}'.${key} is not a schema the AI SDK knows: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

async function jsonSchemaOf(schema: AiSdkSchema, name: string, key: string): Promise<JsonSchema> {
  let json: unknown;
  try {
    json = await schema.jsonSchema;
  } catch (error) {
    throw new TypeError(
      `fromAiSdkTools: '${name}'.${key} cannot be turned into JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (typeof json === 'boolean' || (json !== null && typeof json === 'object' && !Array.isArray(json))) {
    return json as JsonSchema;
  }
  throw new TypeError(`fromAiSdkTools: '${name}'.${key} gave ${describeValue(json)}, not a JSON Schema`);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A streaming tool's preliminary results end with its final one, the call's output. */
async function lastOf(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}

/** zod's and Standard Schema's issues as `path: message`, not zod's JSON dump. */
function validationMessage(error: Error): string {
  const issues =
    (error as { issues?: unknown }).issues ?? (error.cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return error.message;
  return issues
    .slice(0, 5)
    .map((issue: { path?: readonly unknown[]; message?: unknown }) => {
      const path = Array.isArray(issue.path) ? issue.path.map(String).join('.') : '';
      return `${path === '' ? '' : `${path}: `}${String(issue.message ?? 'is invalid')}`;
    })
    .join('; ');
}
