/**
 * The JSON Schema of a solution (`{calls, output}`: the plan loop's answer) for a set of tools,
 * sent to the model as its structured-output format: every call names one of the tools, with
 * that tool's own argument schema, so the model is steered towards calls that compile.
 */
import { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema, Tool } from '../../tools/tool.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

export interface SolutionSchemaOptions {
  /**
   * Schema of the final answer, the `output` of a solution that is done.
   * @default {} (any JSON value)
   */
  readonly outputSchema?: JsonSchema;
}

/**
 * A reference may stand where any argument value goes; the compiler checks what it points to.
 * Only whole top-level arguments are offered this way: the compiler also takes references
 * nested deeper, but spelling that out for every nested schema would make the format unreadable.
 */
const REFERENCE: JsonSchema = {
  type: 'string',
  pattern: '^†(input|state)',
  description: 'A reference to data: †input.<path> or †state.<path>',
};

const OUTPUT_PATH: JsonSchema = {
  type: 'string',
  pattern: '^†state',
  description:
    'Where the result goes: †state.<path>; alternatives with || (first: the plain result, last: an error), all paths with &&',
};

/** The schema of `{calls, output}` for these tools. */
export function solutionSchema(
  tools: ToolRegistry | Iterable<Tool>,
  options: SolutionSchemaOptions = {},
): JsonSchema {
  checkOptions('solutionSchema', options, {
    outputSchema: 'any',
  } satisfies OptionSpec<SolutionSchemaOptions>);
  const registry = ToolRegistry.from(tools);
  const calls = registry.tools().map(callSchema);
  const output = withoutDialect(options.outputSchema ?? {});
  return {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        description: 'Tool calls to run; results flow between them through †state paths',
        items: calls.length === 1 ? calls[0]! : { anyOf: calls },
      },
      output: {
        description: 'The final answer once the task is done, else null',
        anyOf: [{ type: 'null' }, output],
      },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  };
}

function callSchema(tool: Tool): JsonSchema {
  const input = typeof tool.inputSchema === 'object' ? tool.inputSchema : {};
  const declared = (input.properties ?? {}) as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {
    _tool: { const: tool.name, ...(tool.description && { description: tool.description }) },
    _id: { type: 'string', description: 'Optional stable id of the call' },
    _outputPath: OUTPUT_PATH,
  };
  if (tool.latent) {
    const output = typeof tool.outputSchema === 'object' ? withoutDialect(tool.outputSchema) : {};
    properties._output = {
      ...(output as Record<string, unknown>),
      description: "The result, written by you (this tool's result comes from the model)",
    };
  }
  for (const [name, schema] of Object.entries(declared)) {
    properties[name] = { anyOf: [withoutDialect(schema), REFERENCE] };
  }
  const required = Array.isArray(input.required) ? (input.required as string[]) : [];
  return {
    type: 'object',
    properties,
    // A latent call's result is written with it (eager): without it the call does not compile.
    required: [
      '_tool',
      ...(tool.latent ? ['_output'] : []),
      ...required.filter((name) => !name.startsWith('_')),
    ],
    // What the tool's own schema says about other keys; the meta keys are always declared.
    additionalProperties: input.additionalProperties ?? true,
  };
}

/** A sub-schema without its own `$schema`: inside another schema only the root may name one. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || !('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
