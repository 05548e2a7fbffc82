/**
 * One build of planmode as the hostile bench's child sees it: a checkout with a built `dist/`,
 * loaded through its public entry points only, by the names every build of the last rounds
 * exports (compile, run, simulate, ToolRegistry, the CLI's main, PlanAgent and the
 * OpenAI-compatible provider), so that one driver measures an old build and a new one alike.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A compile's answer, as far as the bench reads it. */
export interface CompileAnswer {
  readonly ok: boolean;
  readonly plan?: unknown;
  readonly diagnostics: readonly { readonly code: string; readonly severity: string }[];
}

/** The core entry point (`planmode`), as far as the bench uses it. */
export interface Core {
  readonly compile: (text: string, options: Record<string, unknown>) => CompileAnswer;
  readonly run: (plan: unknown, options: Record<string, unknown>) => Promise<{ readonly status: string }>;
  readonly simulate: (plan: unknown, options: Record<string, unknown>) => unknown;
  readonly ToolRegistry: new (tools: readonly unknown[]) => unknown;
}

/** The `plan` command's main, in process. */
export type CliMain = (argv: readonly string[], io: Record<string, unknown>) => Promise<number>;

/** The agent entry point (`planmode/agent`), as far as the bench uses it. */
export interface AgentEntry {
  readonly PlanAgent: new (options: Record<string, unknown>) => {
    plan(messages: unknown[]): Promise<{ readonly status: string }>;
  };
  readonly OpenAICompatibleProvider: new (options: Record<string, unknown>) => unknown;
}

export interface Build {
  /** The checkout's directory. */
  readonly directory: string;
  readonly core: Core;
  readonly cliMain: () => Promise<CliMain>;
  readonly agent: () => Promise<AgentEntry>;
}

/** The file a build's `dist/` must have for the bench to use it. */
export function builtEntry(directory: string): string {
  return resolve(directory, 'dist/src/index.js');
}

/** @throws {Error} naming the command that builds it, when the checkout has no `dist/`. */
export async function loadBuild(directory: string): Promise<Build> {
  const entry = builtEntry(directory);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` in ${directory}`);
  const load = async <T>(path: string): Promise<T> =>
    (await import(pathToFileURL(resolve(directory, path)).href)) as T;
  const core = await load<Core>('dist/src/index.js');
  return {
    directory,
    core,
    cliMain: async () => (await load<{ main: CliMain }>('dist/src/cli/main.js')).main,
    agent: () => load<AgentEntry>('dist/src/agent/index.js'),
  };
}

/** What a compile answered, in a table cell: `valid`, or its first error's code. */
export function compileOutcome(answer: CompileAnswer): string {
  if (answer.ok) return 'valid';
  const error = answer.diagnostics.find((d) => d.severity === 'error');
  return error ? error.code : 'invalid';
}
