/**
 * bench/imports: what using planmode costs before any plan is compiled. For the root entry,
 * `planmode/agent` and the CLI (`plan --help`, `plan validate`) it measures the modules loaded
 * and the time to load them, and lists the optional heavy packages (model SDKs, queue, MCP SDK,
 * schema faker, layout engine, OpenTelemetry) that were loaded although nothing used them. It
 * then packs planmode, installs the tarball with `--omit=dev` into a temp folder and counts the
 * production packages and their size on disk.
 *
 * Each measurement is a fresh process (the median of 5 for times); module counts come from one
 * more process with a load hook, so the hook's own cost stays out of the times.
 *
 *     npm run bench:imports                 (builds, then runs this)
 *     node dist/bench/imports.js --no-install   (skips the pack and install)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = 5;

/** Packages a user who compiles and runs plans should not pay for until they use them. */
const HEAVY = [
  'openai',
  '@anthropic-ai/sdk',
  'bullmq',
  'ioredis',
  '@modelcontextprotocol/sdk',
  'json-schema-faker',
  '@dagrejs/dagre',
  '@opentelemetry/api',
];

interface Target {
  readonly label: string;
  /** The module imported, relative to the package root. */
  readonly module: string;
  /** When set, `main(argv)` of the imported module runs after the import (the CLI). */
  readonly argv?: readonly string[];
}

const EXAMPLE = join(ROOT, 'fixtures', 'examples', 'refund');
const PLAN = join(EXAMPLE, 'plan.json');
const INPUT = ['--input', join(EXAMPLE, 'input.json')];

const TARGETS: readonly Target[] = [
  { label: "import 'planmode'", module: 'dist/src/index.js' },
  { label: "import 'planmode/agent'", module: 'dist/src/agent/index.js' },
  { label: 'plan --help', module: 'dist/src/cli/main.js', argv: ['--help'] },
  { label: 'plan validate', module: 'dist/src/cli/main.js', argv: ['validate', PLAN] },
  { label: 'plan graph', module: 'dist/src/cli/main.js', argv: ['graph', PLAN] },
  {
    label: 'plan run',
    module: 'dist/src/cli/main.js',
    argv: ['run', PLAN, '--tools', join(EXAMPLE, 'tools.mjs'), ...INPUT, '--yes'],
  },
  {
    label: 'plan simulate (uses the faker)',
    module: 'dist/src/cli/main.js',
    argv: ['simulate', PLAN, '--tools', join(EXAMPLE, 'tools.json'), ...INPUT],
  },
];

/** The child: imports one target (and runs the CLI), then prints what it measured as JSON. */
async function child(index: number, hooked: boolean): Promise<void> {
  const target = TARGETS[index]!;
  const logFile = process.env.BENCH_IMPORTS_LOG;
  if (hooked && logFile) {
    const { register } = await import('node:module');
    // ESM loads are seen by the hook (in its own thread); CJS ones land in require.cache.
    const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(logFile)}, url + '\\n');
  return next(url, context);
}`;
    register(`data:text/javascript,${encodeURIComponent(hook)}`);
  }
  const start = performance.now();
  const loaded = (await import(join(ROOT, target.module))) as {
    main?: (argv: readonly string[], io: unknown) => Promise<number>;
  };
  if (target.argv) {
    const sink = { write: () => true, isTTY: false };
    const code = await loaded.main!(target.argv, { stdout: sink, stderr: sink, stdin: [], env: {} });
    if (code !== 0) throw new Error(`plan ${target.argv.join(' ')} exited with ${code}`);
  }
  const elapsed = performance.now() - start;
  const files = new Set<string>();
  if (hooked && logFile) {
    for (const line of readFileSync(logFile, 'utf8').split('\n')) if (line) files.add(fileURLToPath(line));
  }
  const { createRequire } = await import('node:module');
  for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file);
  process.stdout.write(JSON.stringify({ ms: elapsed, files: [...files] }));
}

interface ChildResult {
  readonly ms: number;
  readonly files: readonly string[];
}

function spawnChild(index: number, hooked: boolean): ChildResult {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-imports-'));
  try {
    const logFile = join(dir, 'loads.txt');
    writeFileSync(logFile, '');
    const args = [fileURLToPath(import.meta.url), '--child', String(index), hooked ? '--hooked' : '--timed'];
    const result = spawnSync(process.execPath, args, {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, BENCH_IMPORTS_LOG: logFile },
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`child ${index} failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as ChildResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The package a node_modules path belongs to (its last node_modules segment), or undefined. */
function packageOf(file: string): string | undefined {
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = file.slice(at + '/node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function measureImports(): void {
  const rows: string[][] = [];
  for (const [index, target] of TARGETS.entries()) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(spawnChild(index, false).ms);
    const { files } = spawnChild(index, true);
    const packages = new Set(files.map(packageOf).filter((name): name is string => name !== undefined));
    const heavy = HEAVY.filter((name) => packages.has(name));
    rows.push([
      target.label,
      String(files.length),
      String(packages.size),
      ms(median(times)),
      heavy.length > 0 ? heavy.join(', ') : 'none',
    ]);
  }
  printTable(['what', 'modules', 'packages', `ms (median of ${RUNS})`, 'heavy packages loaded'], rows);
}

function measureInstall(): void {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-install-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { filename: string }[];
    const tarball = join(dir, packed[0]!.filename);
    const app = join(dir, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    execFileSync(
      'npm',
      ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball],
      { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: app,
      encoding: 'utf8',
    });
    // The first line is the app itself.
    const packages = listed.split('\n').filter((line) => line.includes('/node_modules/')).length;
    const kilobytes = Number(
      execFileSync('du', ['-sk', join(app, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
    );
    printTable(
      ['install (npm install --omit=dev <tarball>)', 'value'],
      [
        ['production packages (planmode included)', String(packages)],
        ['node_modules size', `${(kilobytes / 1024).toFixed(1)} MB`],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  await child(Number(process.argv[childAt + 1]), process.argv.includes('--hooked'));
} else {
  console.log(`Node ${process.version}\n`);
  measureImports();
  if (!process.argv.includes('--no-install')) {
    console.log('');
    measureInstall();
  }
}
