/**
 * bench/hostile: the hostile inputs that once bought minutes or gigabytes with a small input,
 * each measured against one or more builds side by side, at the sizes they were found at.
 *
 *     npm run bench:hostile -- [<build directory> ...] [--only <name>[,<name>]] [--sizes full|small]
 *                              [--timeout <seconds>] [--max-old-space <MB>]
 *
 * A build directory is a checkout with a built `dist/` (default: this checkout); each is labelled
 * by its git short hash. Every attack runs in a child process per build (hostile-child.ts), with
 * a heap ceiling (`--max-old-space-size`, default 4096 MB) and a time limit (default 60 s from
 * the child's start, input building included), past which the child is killed: such a row says
 * `timeout` or `out of memory` rather than a number it does not have. The time is the attack's
 * own; the peak is the child's peak resident set (at the kill, for a killed child; none for one
 * that ran out of heap). `--sizes small` runs everything at a tenth of the size, quickly.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Attack } from './hostile-attack.js';
import { ATTACKS } from './hostile-attacks.js';
import { builtEntry } from './hostile-build.js';
import type { ChildReport } from './hostile-child.js';
import { printTable } from './table.js';

const CHILD = fileURLToPath(new URL('./hostile-child.js', import.meta.url));
/** The checkout this script was built in: dist/bench/ is two levels below it. */
const HERE = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const USAGE =
  'usage: npm run bench:hostile -- [<build directory> ...] [--only <name>[,<name>]] [--sizes full|small] [--timeout <seconds>] [--max-old-space <MB>]';

interface Settings {
  readonly timeoutMs: number;
  readonly heapMb: number;
  readonly scale: number;
}

/** One attack against one build: what the child reported, or why it did not. */
type Measure =
  | ({ readonly ended: 'done' } & ChildReport)
  | { readonly ended: 'timeout'; readonly peakMb: number | undefined }
  | { readonly ended: 'out of memory' }
  | { readonly ended: 'crashed'; readonly detail: string };

interface Build {
  readonly directory: string;
  readonly label: string;
}

function fail(message: string): never {
  console.error(`bench:hostile: ${message}\n${USAGE}`);
  process.exit(2);
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} must be a positive number, not "${value}"`);
  return n;
}

/** The checkout's git short hash, or its folder's name outside git. */
function labelOf(directory: string): string {
  try {
    return execFileSync('git', ['-C', directory, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return basename(directory);
  }
}

/** The process's peak resident set so far, in MB (Linux), read before it is killed. */
function peakOf(pid: number | undefined): number | undefined {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Kills the child and whatever it started (the model server): it leads its own process group. */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

async function measure(attack: Attack, build: Build, settings: Settings): Promise<Measure> {
  const folder = mkdtempSync(join(tmpdir(), 'planmode-hostile-'));
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${settings.heapMb}`,
      CHILD,
      build.directory,
      attack.name,
      String(settings.scale),
      folder,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  // Only the end of it is shown: a fatal V8 error's stack can be long.
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4_000)));
  let timedOut: Measure | undefined;
  const timer = setTimeout(() => {
    timedOut = { ended: 'timeout', peakMb: peakOf(child.pid) };
    killGroup(child);
  }, settings.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.on('close', (c, s) => done([c, s])),
  );
  clearTimeout(timer);
  killGroup(child);
  rmSync(folder, { recursive: true, force: true });
  if (timedOut) return timedOut;
  if (/heap out of memory|Reached heap limit/.test(stderr)) return { ended: 'out of memory' };
  const last = stdout.trim().split('\n').pop() ?? '';
  if (code === 0 && last.startsWith('{')) return { ended: 'done', ...(JSON.parse(last) as ChildReport) };
  const why = signal ? `signal ${signal}` : `exit ${code}`;
  return { ended: 'crashed', detail: `${why}: ${stderr.trim().split('\n').pop() ?? ''}`.slice(0, 160) };
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function cells(m: Measure, settings: Settings): [string, string, string] {
  switch (m.ended) {
    case 'done':
      return [seconds(m.ms), m.peakMb.toFixed(0), m.outcome];
    case 'timeout':
      return [
        `> ${seconds(settings.timeoutMs)}`,
        m.peakMb === undefined ? '?' : `≥ ${m.peakMb.toFixed(0)}`,
        'timeout (killed)',
      ];
    case 'out of memory':
      return ['—', `> ${settings.heapMb} heap`, 'out of memory'];
    case 'crashed':
      return ['—', '—', `crashed (${m.detail})`];
  }
}

/** The first build's time over the last's: how many times faster the last is. */
function ratio(first: Measure, last: Measure, settings: Settings): string {
  if (last.ended !== 'done') return '—';
  if (first.ended === 'done') return `${(first.ms / last.ms).toFixed(1)}x`;
  if (first.ended === 'timeout') return `> ${(settings.timeoutMs / last.ms).toFixed(0)}x`;
  return '—';
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      only: { type: 'string' },
      sizes: { type: 'string', default: 'full' },
      timeout: { type: 'string', default: '60' },
      'max-old-space': { type: 'string', default: '4096' },
    },
  });
  if (values.sizes !== 'full' && values.sizes !== 'small')
    fail(`--sizes must be full or small, not "${values.sizes}"`);
  const settings: Settings = {
    timeoutMs: positive('timeout', values.timeout) * 1000,
    heapMb: Math.round(positive('max-old-space', values['max-old-space'])),
    scale: values.sizes === 'small' ? 0.1 : 1,
  };
  const wanted = values.only?.split(',').map((name) => name.trim());
  for (const name of wanted ?? []) {
    if (!ATTACKS.some((a) => a.name === name))
      fail(`no attack "${name}"; there are ${ATTACKS.map((a) => a.name).join(', ')}`);
  }
  const attacks = wanted ? ATTACKS.filter((a) => wanted.includes(a.name)) : ATTACKS;
  const builds = (positionals.length > 0 ? positionals : [HERE]).map((d) => resolve(d));
  for (const directory of builds) {
    if (!existsSync(builtEntry(directory)))
      fail(`${builtEntry(directory)} is missing: run npm run build in ${directory}`);
  }
  const labels = builds.map(labelOf);
  const named: Build[] = builds.map((directory, i) => ({
    directory,
    label: labels.indexOf(labels[i]!) === i ? labels[i]! : `${labels[i]} (${basename(directory)})`,
  }));

  const rows: string[][] = [];
  for (const attack of attacks) {
    const measures: Measure[] = [];
    for (const build of named) {
      const m = await measure(attack, build, settings);
      measures.push(m);
      console.error(`bench:hostile: ${attack.name} on ${build.label}: ${cells(m, settings).join(', ')}`);
    }
    const row = [attack.title, attack.size(settings.scale), ...measures.flatMap((m) => cells(m, settings))];
    if (named.length > 1) row.push(ratio(measures[0]!, measures.at(-1)!, settings));
    rows.push(row);
  }
  console.log(
    `bench/hostile: ${values.sizes} sizes, one child process per attack and build, killed at ${settings.timeoutMs / 1000} s ` +
      `(from its start) or past a ${settings.heapMb} MB heap; time = the attack alone, peak = the child's peak RSS; node ${process.version}\n` +
      named.map((b) => `  ${b.label}: ${b.directory}`).join('\n') +
      '\n',
  );
  const headers = [
    'attack',
    'size',
    ...named.flatMap((b) => [`${b.label} time`, `${b.label} peak MB`, `${b.label} outcome`]),
  ];
  if (named.length > 1) headers.push(`${named[0]!.label}/${named.at(-1)!.label} time`);
  // A `|` in a cell (the `||` row) would end the cell in markdown: written `\|`, it shows as `|`.
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  printTable(
    headers.map(escape),
    rows.map((row) => row.map(escape)),
  );
}

await main();
