/**
 * The package as a user gets it: `npm pack` of this clone installed into a scratch project
 * (the README's "Add it to your project"), a TypeScript file type-checked under `--strict` by
 * the project's own `tsc` and run with `node`, every subpath's declarations with no optional peer
 * installed, every TypeScript block of README.md and docs/ under `--strict`, `require('planmode')`
 * from CommonJS, and the tarball's contents (a LICENSE, source maps that resolve without `src/`).
 *
 * npm installs the tarball's dependencies from its cache (`--prefer-offline`): `npm ci` for this
 * clone put every one of them there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule } from '../built.js';
import { SNIPPET_CONTEXT } from './snippet-context.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

let scratch: string;
let installed: string;

function sh(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const USER_FILE = `import { compile, run, ToolRegistry, type Tool } from 'planmode';

const getWeather: Tool = {
  name: 'getWeather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => ({ city: args.city, sunny: true }),
};
const tools = new ToolRegistry([getWeather]);
const plan = [{ _tool: 'getWeather', city: '†input.city', _outputPath: '†state.weather' }];

const compiled = compile(plan, { tools });
if (!compiled.ok || compiled.plan === undefined) {
  console.error(compiled.diagnostics.map((d) => d.message).join('\\n'));
  process.exit(1);
}
const result = await run(compiled.plan, { tools, input: { city: 'Paris' } });
const calls: readonly string[] = result.calls.map((call) => \`\${call.id}:\${call.status}\`);
console.log(JSON.stringify({ status: result.status, state: result.state, calls }));
`;

const SUBPATHS = [
  'planmode',
  'planmode/report',
  'planmode/distributed',
  'planmode/agent',
  'planmode/adapters',
  'planmode/import',
  'planmode/serve',
];

/** A TypeScript block of a page: where it starts (the line after its fence) and its text. */
interface Snippet {
  readonly file: string;
  readonly page: string;
  readonly line: number;
  readonly text: string;
}

/** The ```ts blocks of README.md and docs/*.md, each as a module of its own. */
function snippets(): Snippet[] {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((n) => n.endsWith('.md'))
      .map((n) => `docs/${n}`),
  ];
  const found: Snippet[] = [];
  for (const page of pages) {
    const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
    let start = -1;
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!;
      if (start < 0 && (line === '```ts' || line === '```typescript')) start = k + 1;
      else if (start >= 0 && line.startsWith('```')) {
        const name = `${page.replace(/[/.]/g, '-')}-${start + 1}.ts`;
        found.push({ file: name, page, line: start + 1, text: lines.slice(start, k).join('\n') });
        start = -1;
      }
    }
  }
  return found;
}

/** tsc's errors, one `file(line,col): error TSn: message` per line (with continuation lines). */
function typeErrors(project: string): string[] {
  const done = spawnSync(process.execPath, [TSC, '-p', project, '--pretty', 'false'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  return done.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ['node'],
  },
  include: ['index.ts'],
};

beforeAll(() => {
  builtModule('src/index.js'); // npm pack ships dist/src as built: it must exist
  scratch = mkdtempSync(join(tmpdir(), 'planmode-install-'));
  // --ignore-scripts: dist/ is built already (npm test's pretest step); pack only.
  const packed = sh('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch, '--json'], ROOT);
  const tarball = join(scratch, (JSON.parse(packed) as [{ filename: string }])[0].filename);
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  const typesNode = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')) as {
    version: string;
  };
  sh('npm', ['install', ...NPM_QUIET, tarball, `@types/node@${typesNode.version}`], scratch);
  installed = join(scratch, 'node_modules/planmode');
}, 300_000);

/**
 * The user's file and the every-subpath file, type-checked by one `tsc` run (one program, so
 * @types/node and planmode's declarations are checked once, not once per file: the two runs
 * were half of this file's time). Its errors are the whole program's, each test's file included.
 */
let strictRun: { status: number | null; errors: string[] } | undefined;
function strictProgram(): { status: number | null; errors: string[] } {
  if (strictRun) return strictRun;
  writeFileSync(join(scratch, 'index.ts'), USER_FILE);
  const lines = SUBPATHS.map((entry, k) => `import * as m${k} from '${entry}';`);
  lines.push(`console.log(${SUBPATHS.map((_, k) => `Object.keys(m${k}).length`).join(', ')});`);
  writeFileSync(join(scratch, 'subpaths.ts'), lines.join('\n'));
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({ ...TSCONFIG, include: ['index.ts', 'subpaths.ts'] }),
  );
  const done = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  const errors = done.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  // A failure with no `error TS` line (a crash, a bad config) is its whole output.
  const failed = done.status !== 0 && errors.length === 0;
  strictRun = { status: done.status, errors: failed ? [done.stdout + done.stderr] : errors };
  return strictRun;
}

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// Each test runs tsc or node in a child process over the installed package: on a loaded
// 2-core machine one tsc took 90 s, past the suite's 60 s, so these get five minutes (a hang
// still fails).
describe('planmode installed from its packed tarball into a scratch project', { timeout: 300_000 }, () => {
  it('a TypeScript file using it type-checks under --strict and runs', () => {
    expect(strictProgram()).toEqual({ status: 0, errors: [] });
    const out = JSON.parse(sh(process.execPath, ['index.js'], scratch)) as unknown;
    expect(out).toEqual({
      status: 'succeeded',
      state: { weather: { city: 'Paris', sunny: true } },
      calls: ['0:succeeded'],
    });
  });

  it('every subpath type-checks with no optional peer installed (skipLibCheck off)', () => {
    expect(
      readdirSync(join(scratch, 'node_modules')).filter((n) =>
        /^(openai|bullmq|ioredis|@modelcontextprotocol|@anthropic-ai)$/.test(n),
      ),
    ).toEqual([]);
    expect(strictProgram().errors).toEqual([]);
    // The program held the subpath file: tsc emitted it.
    expect(existsSync(join(scratch, 'subpaths.js'))).toBe(true);
  });

  it('every TypeScript block of README.md and docs/ type-checks under --strict', () => {
    const blocks = snippets();
    expect(blocks.length).toBeGreaterThan(30);
    const folder = join(scratch, 'snippets');
    mkdirSync(folder);
    for (const block of blocks) writeFileSync(join(folder, block.file), `${block.text}\nexport {};\n`);
    writeFileSync(join(folder, 'snippet-context.d.ts'), SNIPPET_CONTEXT);
    // The adapters page shows other SDKs' tools: their types come from this clone's own
    // node_modules (dev dependencies), linked beside the blocks as the reader's project has them.
    mkdirSync(join(folder, 'node_modules/@openai'), { recursive: true });
    // docs/observability.md sets up the OpenTelemetry SDK, as its reader installs it.
    mkdirSync(join(folder, 'node_modules/@opentelemetry'), { recursive: true });
    for (const sdk of [
      'ai',
      '@openai/agents',
      'zod',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/exporter-trace-otlp-http',
    ]) {
      symlinkSync(join(ROOT, 'node_modules', sdk), join(folder, 'node_modules', sdk), 'dir');
    }
    const config = {
      ...TSCONFIG,
      // skipLibCheck: planmode's own declarations are checked whole by the subpath test above;
      // here it would only re-check the other SDKs' (seconds of tsc for nothing of ours).
      compilerOptions: { ...TSCONFIG.compilerOptions, noUncheckedIndexedAccess: false, skipLibCheck: true },
      include: ['snippets/*.ts'],
    };
    writeFileSync(join(scratch, 'tsconfig.snippets.json'), JSON.stringify(config));
    const byFile = new Map(blocks.map((b) => [b.file, b]));
    // Each error said where a reader finds it: the page and its line.
    const errors = typeErrors('tsconfig.snippets.json').map((line) => {
      const at = /^snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
      const block = at ? byFile.get(at[1]!) : undefined;
      return block && at ? `${block.page}:${block.line + Number(at[2]) - 1}:${at[3]} ${at[4]}` : line;
    });
    expect(errors).toEqual([]);
  });

  it('require() from CommonJS loads the same entry points', () => {
    writeFileSync(
      join(scratch, 'use.cjs'),
      `const planmode = require('planmode');
const report = require('planmode/report');
console.log(typeof planmode.compile, typeof planmode.run, typeof report.renderReport);`,
    );
    expect(sh(process.execPath, ['use.cjs'], scratch).trim()).toBe('function function function');
  });

  it('ships a LICENSE and its bin, and no TypeScript sources or tests', () => {
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(existsSync(join(installed, 'bin/plan.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
  });

  it('every shipped source map resolves: its sources are in the map or in the package', () => {
    const unresolved: string[] = [];
    const folders = [join(installed, 'dist/src')];
    let maps = 0;
    // An explicit stack of folders: the package's own tree, walked without recursion.
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) folders.push(path);
        else if (entry.name.endsWith('.map')) {
          maps++;
          const map = JSON.parse(readFileSync(path, 'utf8')) as {
            sources: string[];
            sourcesContent?: string[];
          };
          map.sources.forEach((source, k) => {
            const text = map.sourcesContent?.[k];
            if (typeof text !== 'string' && !existsSync(resolve(dirname(path), source))) {
              unresolved.push(`${path.slice(installed.length + 1)} -> ${source}`);
            }
          });
        }
      }
    }
    expect(maps).toBeGreaterThan(50);
    expect(unresolved).toEqual([]);
  });

  it('the plan command runs from the installed bin', () => {
    writeFileSync(join(scratch, 'plan.json'), JSON.stringify([{ _tool: 'lookup', _outputPath: '†state.x' }]));
    const bin = join(scratch, 'node_modules/.bin/planmode');
    const done = spawnSync(process.execPath, [bin, 'validate', 'plan.json'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect({ status: done.status, said: done.stdout + done.stderr }).toEqual({
      status: 0,
      said: expect.stringContaining('plan.json: valid, 1 call, 0 edges, 0 warnings') as unknown,
    });
  });
});
