/**
 * planmode installed without its optional peers (openai, @anthropic-ai/sdk, bullmq, ioredis,
 * @modelcontextprotocol/sdk), for real: a temp folder whose node_modules holds a copy of the
 * built package and links to every other installed package, and no peer anywhere on the
 * resolution path. There, compiling and running plans work, importing any entry point works,
 * and each feature that needs a missing peer says which `npm install` adds it: exit 2 in the
 * CLI, a MissingDependencyError in the library.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli/helpers.js';

const OPTIONAL_PEERS = [
  'openai',
  '@anthropic-ai/sdk',
  'bullmq',
  'ioredis',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/api',
];
/** Regular dependencies that only some commands need, loaded when first used. */
const LOADED_ON_USE = ['json-schema-faker', '@dagrejs/dagre'];

const TOOLS_JSON = [
  {
    name: 'greet',
    description: 'Greets someone',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];
const TOOLS_MODULE = `export const tools = [{
  name: 'greet',
  description: 'Greets someone',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  execute: async ({ name }) => ({ text: 'hello ' + name }),
}];
`;
const PLAN = { calls: [{ _tool: 'greet', name: 'Ada' }] };

/**
 * Logs the file of every module loaded to LOAD_LOG: ES modules as the hooks thread sees them
 * load, and at exit what require() loaded (CommonJS, and ES modules required synchronously).
 */
const LOAD_HOOK = `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOAD_LOG, url + '\\\\n');
  return next(url, context);
}\`));
process.on('exit', () => {
  const required = Object.keys(createRequire(import.meta.url).cache);
  appendFileSync(process.env.LOAD_LOG, required.map((file) => pathToFileURL(file).href + '\\n').join(''));
});
`;

/** Calls each library feature that needs a peer; prints what each threw. */
const LIBRARY_PROBE = `
import { isMissingDependencyError } from 'planmode';
import { AnthropicProvider, OpenAICompatibleProvider, RedisPlanStore } from 'planmode/agent';
import { connectMcpServer } from 'planmode/adapters';
import { createDispatcher, startWorker } from 'planmode/distributed';

const features = {
  openai: () => new OpenAICompatibleProvider({ model: 'gpt-4o', apiKey: 'sk-test' }).loadSdk(),
  anthropic: () => new AnthropicProvider({ model: 'claude', apiKey: 'sk-test' }).loadSdk(),
  openaiStream: async () => {
    const provider = new OpenAICompatibleProvider({ model: 'gpt-4o', apiKey: 'sk-test' });
    for await (const event of provider.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) void event;
  },
  mcp: () => connectMcpServer('node --version'),
  dispatcher: () => createDispatcher({ redis: 'redis://127.0.0.1:1' }),
  worker: () => startWorker({ tools: [], redis: 'redis://127.0.0.1:1' }),
  planStore: () => new RedisPlanStore({ url: 'redis://127.0.0.1:1' }).read('PLAN.md'),
};
const thrown = {};
for (const [name, feature] of Object.entries(features)) {
  try {
    await feature();
    thrown[name] = 'nothing';
  } catch (e) {
    thrown[name] = {
      guard: isMissingDependencyError(e),
      name: e.name,
      packageName: e.packageName,
      feature: e.feature,
      installCommand: e.installCommand,
      message: e.message,
    };
  }
}
process.stdout.write(JSON.stringify(thrown));
`;

let app: string;

/** Runs node in the app folder, with nothing but its node_modules to resolve from. */
function node(args: readonly string[], env: Record<string, string> = {}) {
  const log = join(app, 'loads.txt');
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, args, {
    cwd: app,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: app, LOAD_LOG: log, ...env },
    timeout: 30_000,
  });
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, loaded };
}

/** `plan <args>`, logging what it loads (the hook costs a thread and a write per module). */
function plan(args: readonly string[], env: Record<string, string> = {}) {
  return node(['--import', './load-hook.mjs', 'node_modules/planmode/bin/plan.js', ...args], env);
}

/** `plan <args>` where only its exit and output count: the same process, without the load log. */
function planUnlogged(args: readonly string[], env: Record<string, string> = {}) {
  return node(['node_modules/planmode/bin/plan.js', ...args], env);
}

/** The packages (from LOADED_ON_USE and the peers) that a list of loaded files went into. */
function optionalPackagesIn(loaded: readonly string[]): string[] {
  return [...LOADED_ON_USE, ...OPTIONAL_PEERS].filter((name) =>
    loaded.some((url) => url.includes(`/node_modules/${name}/`)),
  );
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/src/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  app = mkdtempSync(join(tmpdir(), 'planmode-no-peers-'));
  const modules = join(app, 'node_modules');
  // Copied, not linked: a link would resolve the peers from this checkout, where they are.
  const installed = join(modules, 'planmode');
  for (const part of ['package.json', 'bin', 'dist/src', 'schemas']) {
    cpSync(join(ROOT, part), join(installed, part), { recursive: true });
  }
  const source = join(ROOT, 'node_modules');
  for (const entry of readdirSync(source)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@')
      ? readdirSync(join(source, entry)).map((m) => `${entry}/${m}`)
      : [entry];
    for (const name of names) {
      if (OPTIONAL_PEERS.includes(name)) continue;
      mkdirSync(join(modules, name, '..'), { recursive: true });
      symlinkSync(join(source, name), join(modules, name));
    }
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(app, 'tools.json'), JSON.stringify({ tools: TOOLS_JSON }));
  writeFileSync(join(app, 'tools.mjs'), TOOLS_MODULE);
  writeFileSync(join(app, 'plan.json'), JSON.stringify(PLAN));
  writeFileSync(join(app, 'load-hook.mjs'), LOAD_HOOK);
  writeFileSync(join(app, 'library-probe.mjs'), LIBRARY_PROBE);
}, 60_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('without the optional peers installed', () => {
  it('has none of them on the resolution path (the premise of every test here)', () => {
    const result = node(['-e', "import('openai').then(() => process.exit(0), () => process.exit(3))"]);
    expect(result.code).toBe(3);
  });

  it.each([
    ['planmode'],
    ['planmode/report'],
    ['planmode/agent'],
    ['planmode/adapters'],
    ['planmode/distributed'],
    ['planmode/serve'],
  ])("import '%s' works and loads none of the optional packages", (entry) => {
    const result = node([
      '--import',
      './load-hook.mjs',
      '--input-type=module',
      '-e',
      `await import('${entry}')`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.loaded.length).toBeGreaterThan(0);
    expect(optionalPackagesIn(result.loaded)).toEqual(
      // The report's layout engine is what planmode/report is for, and the approval page draws plans with it.
      entry === 'planmode/report' || entry === 'planmode/serve' ? ['@dagrejs/dagre'] : [],
    );
  });

  it('plan validate, graph and run work and load none of them; simulate loads the schema faker', () => {
    const validate = plan(['validate', 'plan.json', '--tools', 'tools.json']);
    expect(validate.code).toBe(0);
    expect(optionalPackagesIn(validate.loaded)).toEqual([]);

    const graph = plan(['graph', 'plan.json']);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain('greet');
    expect(optionalPackagesIn(graph.loaded)).toEqual([]);

    const run = plan(['run', 'plan.json', '--tools', 'tools.mjs']);
    expect(run.code).toBe(0);
    expect(optionalPackagesIn(run.loaded)).toEqual([]);

    const simulate = plan(['simulate', 'plan.json', '--tools', 'tools.json']);
    expect(simulate.code).toBe(0);
    expect(optionalPackagesIn(simulate.loaded)).toEqual(['json-schema-faker']);
  }, 120_000);

  it.each([
    [
      ['agent', '--model', 'openai:gpt-4o', '--tools', 'tools.mjs', 'say hi'],
      "plan: error: --model openai:gpt-4o needs the 'openai' package: npm install openai@6.30.1\n",
    ],
    [
      ['agent', '--model', 'anthropic:claude-sonnet-4-6', '--tools', 'tools.mjs', 'say hi'],
      "plan: error: --model anthropic:claude-sonnet-4-6 needs the '@anthropic-ai/sdk' package: npm install @anthropic-ai/sdk@1.12.0\n",
    ],
    [
      ['run', 'plan.json', '--tools', 'tools.mjs', '--redis', 'redis://127.0.0.1:1'],
      "plan: error: --redis needs the 'bullmq' package: npm install bullmq@6.7.0 ioredis@5.11.1\n",
    ],
    [
      ['worker', '--tools', 'tools.mjs'],
      "plan: error: plan worker needs the 'bullmq' package: npm install bullmq@6.7.0 ioredis@5.11.1\n",
    ],
    [
      ['validate', 'plan.json', '--mcp', 'node --version'],
      "plan: error: --mcp needs the '@modelcontextprotocol/sdk' package: npm install @modelcontextprotocol/sdk@1.32.2\n",
    ],
  ])('plan %j is exit 2 and one line naming the npm install', (args, line) => {
    const result = planUnlogged(args, { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-test' });
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
      code: 2,
      stderr: line,
      stdout: '',
    });
  });

  it('the library throws a MissingDependencyError naming the package, the feature and the install', () => {
    const result = node(['library-probe.mjs']);
    expect(result.stderr).toBe('');
    const missing = (packageName: string, feature: string, installCommand: string) => ({
      guard: true,
      name: 'MissingDependencyError',
      packageName,
      feature,
      installCommand,
      message: `${feature} needs the '${packageName}' package: ${installCommand}`,
    });
    expect(JSON.parse(result.stdout)).toEqual({
      openai: missing('openai', 'the openai:gpt-4o provider', 'npm install openai@6.30.1'),
      anthropic: missing(
        '@anthropic-ai/sdk',
        'the anthropic:claude provider',
        'npm install @anthropic-ai/sdk@1.12.0',
      ),
      openaiStream: missing('openai', 'the openai:gpt-4o provider', 'npm install openai@6.30.1'),
      mcp: missing(
        '@modelcontextprotocol/sdk',
        'connectMcpServer',
        'npm install @modelcontextprotocol/sdk@1.32.2',
      ),
      dispatcher: missing('bullmq', 'createDispatcher', 'npm install bullmq@6.7.0 ioredis@5.11.1'),
      worker: missing('bullmq', 'startWorker', 'npm install bullmq@6.7.0 ioredis@5.11.1'),
      planStore: missing('ioredis', 'RedisPlanStore', 'npm install ioredis@5.11.1'),
    });
  });
});
