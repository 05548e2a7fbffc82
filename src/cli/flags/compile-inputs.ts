/** The flags every plan command shares (--tools, --input, --state), turned into compile options. */
import type { CompileOptions } from '../../compile/compile.js';
import { isToolDefinitionError, isToolsFileError } from '../../errors.js';
import { loadToolsFile } from '../../tools/load-tools-file.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import { CliInputError } from '../cli-input-error.js';
import { type CliIo, displayName, readJsonObject, readText, STDIN } from '../io.js';
import { type LimitFlags, limitsFlag } from './limit-flags.js';
import { joinTools, type McpFlags } from './mcp-servers.js';
import { millisecondsFlag } from './whole-number.js';

export interface CommonFlags extends McpFlags, LimitFlags {
  /** A tools file: a .json manifest or a .js/.mjs module. Without it, tools are not checked. */
  readonly tools?: string;
  /** A JSON object file of `†input` values. */
  readonly input?: string;
  /** A JSON object file of initial state. */
  readonly state?: string;
  /**
   * Most time a tools module may take to load, in ms (a whole number from 1 to 2147483647).
   * @default '30000'
   */
  readonly loadTimeout?: string;
  /**
   * Follow types through references (`--no-check-types` makes it false).
   * @default true
   */
  readonly checkTypes?: boolean;
  /**
   * Every warning is an error (`--strict`).
   * @default false
   */
  readonly strict?: boolean;
}

export interface CompileInputs {
  /** The plan text. */
  readonly text: string;
  /** The plan's name in messages: the path as given, or `<stdin>`. */
  readonly source: string;
  /** Everything for `compile` but the text. */
  readonly options: CompileOptions;
}

/**
 * Reads the plan and everything the flags name, in that order, so the first problem reported
 * is the first a user would look for.
 *
 * @throws {CliInputError} for any file that cannot be used (exit code 2).
 */
export interface LoadCompileInputsOptions {
  /**
   * Read the plan file now; false leaves `text` empty, for a plan read as it arrives (`plan run -`).
   * @default true
   */
  readonly readPlan?: boolean;
}

export async function loadCompileInputs(
  file: string,
  flags: CommonFlags,
  io: CliIo,
  options: LoadCompileInputsOptions = {},
): Promise<CompileInputs> {
  const fromStdin = [file, flags.input, flags.state].filter((f) => f === STDIN).length;
  if (fromStdin > 1)
    throw new CliInputError(
      "only one of the plan, --input and --state can be read from standard input ('-')",
    );
  if (flags.tools === STDIN)
    throw new CliInputError('--tools cannot read standard input; name a .json manifest or a .js/.mjs module');
  const loadTimeoutMs = loadTimeoutFlag(flags);
  const limits = limitsFlag(flags);
  const text = options.readPlan === false ? '' : await readText(file, { io, what: 'plan file', limits });
  const tools =
    flags.tools === undefined && flags.mcpTools === undefined
      ? undefined
      : await loadToolRegistry(flags.tools, flags.mcpTools ?? [], loadTimeoutMs);
  const input =
    flags.input === undefined
      ? undefined
      : await readJsonObject(flags.input, { io, what: 'input file', limits });
  const state =
    flags.state === undefined
      ? undefined
      : await readJsonObject(flags.state, { io, what: 'state file', limits });
  const source = displayName(file);
  return {
    text,
    source,
    options: {
      source,
      limits,
      ...(tools && { tools }),
      ...(input && { input }),
      ...(state && { state }),
      ...(flags.checkTypes === false && { checkTypes: false }),
      ...(flags.strict === true && { strict: true }),
    },
  };
}

/** `--load-timeout <ms>`, checked whether or not a tools module is given. */
export function loadTimeoutFlag(flags: { readonly loadTimeout?: string }): number | undefined {
  return millisecondsFlag(flags.loadTimeout, '--load-timeout', 1);
}

/**
 * The tools of --tools (a manifest or a module) joined with those of the --mcp servers.
 * @param loadTimeoutMs Most time the module may take to load (loadToolsFile's default when undefined).
 * @throws {CliInputError} (exit 2) for a tools file or definition that cannot be used.
 */
export async function loadToolRegistry(
  file: string | undefined,
  mcpTools: readonly Tool[],
  loadTimeoutMs?: number,
): Promise<ToolRegistry> {
  try {
    const fileTools =
      file === undefined
        ? []
        : await loadToolsFile(file, loadTimeoutMs === undefined ? {} : { loadTimeoutMs });
    return new ToolRegistry(joinTools(fileTools, file, mcpTools));
  } catch (e) {
    if (isToolsFileError(e)) throw new CliInputError(e.message);
    if (isToolDefinitionError(e)) {
      throw new CliInputError(
        `${file === undefined ? 'the --mcp tools' : `tools file '${file}'`}: ${e.message}`,
      );
    }
    throw e;
  }
}
