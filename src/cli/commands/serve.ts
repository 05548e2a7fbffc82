/**
 * `plan serve <tools-module>`: the plan server (planmode/serve) over a tools module, on loopback
 * unless told otherwise. Its first line on stdout is `listening on http://HOST:PORT`, for a
 * script to read the port from; it serves until Ctrl-C or SIGTERM, then cancels what runs and
 * exits 0. Listening beyond loopback without a token is refused (exit 2).
 */
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelProvider } from '../../agent/index.js';
import type { LatentFunction } from '../../run/index.js';
import { isLoopbackHost, type PlanServer, startServer } from '../../serve/index.js';
import { CliInputError } from '../cli-input-error.js';
import { ExitCode } from '../exit-codes.js';
import { loadTimeoutFlag, loadToolRegistry } from '../flags/compile-inputs.js';
import { type LimitFlags, limitsFlag } from '../flags/limit-flags.js';
import type { McpFlags } from '../flags/mcp-servers.js';
import { loadProviderSdk } from '../flags/missing-dependency.js';
import { wholeNumber } from '../flags/whole-number.js';
import type { CliIo } from '../io.js';
import { oneLine } from '../output/index.js';

/** The environment variable a token can come from, instead of --token (which `ps` shows). */
export const TOKEN_VARIABLE = 'PLANMODE_TOKEN';

export interface ServeFlags extends McpFlags, LimitFlags {
  /**
   * The address to listen on.
   * @default '127.0.0.1'
   */
  readonly host?: string;
  /**
   * The port; 0 picks a free one.
   * @default '0'
   */
  readonly port?: string;
  /**
   * The bearer token of the API; required off loopback.
   * @default the PLANMODE_TOKEN environment variable, else none
   */
  readonly token?: string;
  /** `<provider>:<model>` for `POST /api/agents`. @default undefined (no agents) */
  readonly model?: string;
  /** The model API's base URL. @default the provider's own */
  readonly baseUrl?: string;
  /** Folder of the agents' plan files. @default 'plans' under the working directory */
  readonly plansDir?: string;
  /** Most bytes of a request body. @default '1048576' */
  readonly maxBodyBytes?: string;
  /** Most time the tools module may take to load, in ms. @default '30000' */
  readonly loadTimeout?: string;
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/**
 * @returns 0 once stopped by Ctrl-C or SIGTERM. Input problems (a tools file that is no module,
 *   a bad flag, a host beyond loopback without a token, an address in use) throw CliInputError (2).
 */
export async function serveCommand(toolsFile: string, flags: ServeFlags, io: CliIo): Promise<number> {
  const host = flags.host ?? '127.0.0.1';
  const port = wholeNumber(flags.port, '--port', 0) ?? 0;
  if (port > 65535)
    throw new CliInputError(`--port must be a whole number from 0 to 65535, not '${flags.port}'`);
  const fromEnv = io.env[TOKEN_VARIABLE];
  const token = flags.token ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
  if (token !== undefined && (token === '' || /\s/.test(token)))
    throw new CliInputError(`the token (--token or ${TOKEN_VARIABLE}) must be non-empty and hold no spaces`);
  if (token === undefined && !isLoopbackHost(host)) {
    throw new CliInputError(
      `--host ${host} is not a loopback address, and a server other machines can reach needs a token: give --token <token> or set ${TOKEN_VARIABLE} (or leave out --host to listen on 127.0.0.1)`,
    );
  }
  const maxBodyBytes = wholeNumber(flags.maxBodyBytes, '--max-body-bytes', 1);
  if (!MODULE_EXTENSIONS.has(extname(toolsFile).toLowerCase())) {
    throw new CliInputError(
      `'${toolsFile}' is not a module; plan serve needs a .js/.mjs ES module that exports tools with execute functions`,
    );
  }
  const limits = limitsFlag(flags);
  const tools = await loadToolRegistry(toolsFile, flags.mcpTools ?? [], loadTimeoutFlag(flags));
  const latent = await latentOf(toolsFile);
  const provider = flags.model === undefined ? undefined : await providerOf(flags.model, flags.baseUrl, io);
  if (flags.baseUrl !== undefined && flags.model === undefined)
    throw new CliInputError('--base-url is the model API of --model; give --model too');

  // Listening for the signals before the server starts: one during start-up stops it too.
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((done) => (stop = done));
  const onInterrupt = () => stop('SIGINT');
  const onTerminate = () => stop('SIGTERM');
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onTerminate);
  let server: PlanServer | undefined;
  try {
    try {
      server = await startServer({
        tools,
        host,
        port,
        limits,
        ...(token !== undefined && { token }),
        ...(provider && { provider }),
        ...(latent && { latent }),
        ...(flags.plansDir !== undefined && { plansDir: flags.plansDir }),
        ...(maxBodyBytes !== undefined && { maxBodyBytes }),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
        throw new CliInputError(`cannot listen on ${host}:${port}: ${oneLine((error as Error).message)}`);
      throw error;
    }
    io.stdout.write(`listening on ${server.url}\n`);
    io.stderr.write(
      `plan serve: ${tools.size} tool${tools.size === 1 ? '' : 's'}${provider ? `, agents on ${flags.model}` : ''}; the approval page is ${server.url}/${token !== undefined ? '#token=<token>' : ''}; Ctrl-C stops\n`,
    );
    const signal = await stopped;
    io.stderr.write(`plan serve: ${signal}: cancelling what runs, then stopping\n`);
    return ExitCode.OK;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onTerminate);
    await server?.close();
  }
}

/** A tools module may export `latent(request)`, as for `plan run`: it produces latent tools' results. */
async function latentOf(toolsFile: string): Promise<LatentFunction | undefined> {
  const module = (await import(pathToFileURL(resolve(toolsFile)).href)) as { latent?: unknown };
  return typeof module.latent === 'function' ? (module.latent as LatentFunction) : undefined;
}

async function providerOf(model: string, baseUrl: string | undefined, io: CliIo): Promise<ModelProvider> {
  // Loaded on use: the model SDKs are not needed without --model.
  const { createProvider } = await import('../../agent/providers/index.js');
  let provider: ModelProvider;
  try {
    provider = createProvider(model, { ...(baseUrl !== undefined && { baseURL: baseUrl }), env: io.env });
  } catch (e) {
    throw new CliInputError(oneLine((e as Error).message.replace(/^createProvider: /, '--model: ')));
  }
  await loadProviderSdk(provider, `--model ${model}`);
  return provider;
}
