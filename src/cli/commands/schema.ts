/**
 * `plan schema --tools <file>`: the JSON Schema of a plan over exactly those tools, on stdout,
 * for a model API's structured output (constrained decoding).
 */
import { planSchema, type PlanSchemaOptions } from '../../compile/plan-schema/index.js';
import { CliInputError } from '../cli-input-error.js';
import { loadTimeoutFlag, loadToolRegistry } from '../flags/compile-inputs.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { McpFlags } from '../flags/mcp-servers.js';

export interface SchemaFlags extends McpFlags {
  /** The tools file (a manifest or a module). */
  readonly tools?: string;
  /** Most time a tools module may take to load, in ms (text as given). */
  readonly loadTimeout?: string;
  /**
   * eager or lazy (lazy plans carry no `_output`).
   * @default 'eager'
   */
  readonly mode?: string;
  /**
   * json-schema, openai-strict or grammar.
   * @default 'json-schema'
   */
  readonly format?: string;
  /**
   * calls (the call array) or solution (`{calls, output}`).
   * @default 'calls'
   */
  readonly shape?: string;
}

/** @returns 0 printed. Usage problems throw CliInputError (exit 2). */
export async function schemaCommand(flags: SchemaFlags, io: CliIo): Promise<number> {
  if (flags.tools === undefined && (flags.mcpTools ?? []).length === 0) {
    throw new CliInputError(
      'plan schema needs --tools <file> (or --mcp <command>): the schema offers exactly those tools',
    );
  }
  const registry = await loadToolRegistry(flags.tools, flags.mcpTools ?? [], loadTimeoutFlag(flags));
  let schema: Record<string, unknown>;
  try {
    schema = planSchema(registry, {
      ...(flags.mode !== undefined && { mode: flags.mode as PlanSchemaOptions['mode'] }),
      ...(flags.format !== undefined && { format: flags.format as PlanSchemaOptions['format'] }),
      ...(flags.shape !== undefined && { shape: flags.shape as PlanSchemaOptions['shape'] }),
    });
  } catch (e) {
    // A bad choice, or tools too large for strict mode: the message says which and what to do.
    if (e instanceof TypeError || e instanceof RangeError) throw new CliInputError(e.message);
    throw e;
  }
  io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
  return ExitCode.OK;
}
