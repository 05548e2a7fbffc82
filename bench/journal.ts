/**
 * bench/journal: a run with `journal` against the same run without, side by side in one process.
 *
 * Generated plans of no-op calls (bench/plans): a 100k-call chain, where each call waits for the
 * one before (the journal's worst case: every completion is on the critical path), and a 10k-call
 * fan-out (one call, then 9,999 readers of it: many completions at once). Each with two tools:
 * `sync` returns its `n` at once, `async` returns it after a setImmediate, so that every call
 * ends in its own event-loop turn as a call doing real I/O does.
 *
 * Three runs of each plan, alternating: `bare` (no journal and nobody listening, so no event is
 * even built), `events` (no journal, an `onEvent` that does nothing: what `plan run` always has,
 * for its progress lines) and `journal` (`events` plus `journal`). The target compares `journal`
 * with `events`, as `plan run --journal` compares with `plan run`: journal/events <= 2x.
 * journal/bare is shown too. One child process per row; the median of several runs is kept.
 * Journal files go to a temporary directory, removed afterwards.
 *
 * Then the command as a user runs it: `plan run` on the 100k-call chain (a plan file, a tools
 * module of the synchronous tool), each run a fresh process, with and without `--journal`,
 * alternating: what `--journal` adds to the whole command (start-up, compile, run, summary).
 *
 *     npm run bench:journal      (builds, then runs this)
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { runChildCase } from './child-case.js';
import { benchTools, generatePlan, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const CONCURRENCY = 64;
const MAX_RATIO = 2;
const WARMUPS = 1;
const repeats = (calls: number) => (calls <= 10_000 ? 7 : 3);

type Kind = 'sync' | 'async';
type Args = Record<string, unknown>;
type Variant = 'bare' | 'events' | 'journal';
const VARIANTS: readonly Variant[] = ['bare', 'events', 'journal'];

interface Case {
  readonly shape: Shape;
  readonly calls: number;
  readonly kind: Kind;
}

const CASES: readonly Case[] = [
  { shape: 'chain', calls: 100_000, kind: 'sync' },
  { shape: 'chain', calls: 100_000, kind: 'async' },
  { shape: 'fanout', calls: 10_000, kind: 'sync' },
  { shape: 'fanout', calls: 10_000, kind: 'async' },
];

interface CaseResult extends Case {
  readonly bareMs: number;
  readonly eventsMs: number;
  readonly journalMs: number;
  readonly journalBytes: number;
  /** The journal's lines written again as the run writes them, and nothing else (see writeFloor). */
  readonly writesMs: number;
}

function tools(kind: Kind): ToolRegistry {
  const execute =
    kind === 'sync'
      ? (args: Args) => args.n
      : (args: Args) => new Promise((resolve) => setImmediate(() => resolve(args.n)));
  return new ToolRegistry(benchTools.map((t): Tool<Args> => ({ ...t, execute })));
}

function compiled(shape: Shape, n: number, registry: ToolRegistry): CompiledPlan {
  const result = compile(generatePlan(shape, n), { tools: registry });
  if (!result.ok) throw new Error(`bench plan did not compile: ${result.diagnostics[0]?.message}`);
  return result.plan!;
}

async function timed(work: () => Promise<void>): Promise<number> {
  globalThis.gc?.();
  const t = performance.now();
  await work();
  return performance.now() - t;
}

/** In a child process: one case, the three variants, alternating. */
async function measure(shape: Shape, n: number, kind: Kind): Promise<CaseResult> {
  const registry = tools(kind);
  const plan = compiled(shape, n, registry);
  const dir = mkdtempSync(join(tmpdir(), 'planmode-bench-journal-'));
  try {
    const once = async (variant: Variant) => {
      const result = await run(plan, {
        tools: registry,
        concurrency: CONCURRENCY,
        ...(variant !== 'bare' && { onEvent: () => {} }),
        ...(variant === 'journal' && { journal: dir }),
      });
      if (result.status !== 'succeeded') throw new Error(`${shape} ${n} ${kind}: run ended ${result.status}`);
      if (result.state[`v${n - 1}`] !== n - 1) throw new Error(`${shape} ${n} ${kind}: wrong final state`);
    };
    for (let w = 0; w < WARMUPS; w++) for (const variant of VARIANTS) await once(variant);
    const times: Record<Variant, number[]> = { bare: [], events: [], journal: [] };
    for (let r = 0; r < repeats(n); r++) {
      for (const variant of VARIANTS) times[variant].push(await timed(() => once(variant)));
    }
    const files = readdirSync(dir);
    const journalBytes = files.length === 1 ? statSync(join(dir, files[0]!)).size : Number.NaN;
    const writesMs = files.length === 1 ? writeFloor(join(dir, files[0]!), dir) : Number.NaN;
    return {
      shape,
      calls: n,
      kind,
      bareMs: median(times.bare),
      eventsMs: median(times.events),
      journalMs: median(times.journal),
      journalBytes,
      writesMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The least a journal with these crash promises costs: its lines written again into a new file
 * opened as the journal is (append), in the writes the run makes (a `call:end` together with the
 * `call:start` lines that follow it, the starts written ahead; every other line alone), with no
 * encoding, no fsync and no run around them. Median of three.
 */
function writeFloor(journal: string, dir: string): number {
  const writes = groupedWrites(readFileSync(journal, 'utf8').split('\n'));
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const path = join(dir, `floor-${r}.jsonl`);
    const { O_RDWR, O_CREAT, O_APPEND } = constants;
    const fd = openSync(path, O_RDWR | O_CREAT | O_APPEND, 0o644);
    const t = performance.now();
    for (const write of writes) writeSync(fd, write);
    times.push(performance.now() - t);
    closeSync(fd);
    rmSync(path);
  }
  return median(times);
}

/** The journal's lines as the run writes them: each call:end with the call:start lines after it. */
function groupedWrites(lines: readonly string[]): string[] {
  const writes: string[] = [];
  let group = '';
  let afterEnd = false;
  for (const line of lines) {
    if (line === '') continue;
    // Whole events (versions 2 and 3) or compact lines (version 4).
    const isEnd = line.startsWith('{"type":"call:end"') || line.startsWith('{"end":');
    const isStart = line.startsWith('{"type":"call:start"') || line.startsWith('{"start":');
    if (afterEnd && !isEnd && isStart) {
      group += `${line}\n`;
      continue;
    }
    if (group !== '') writes.push(group);
    group = `${line}\n`;
    afterEnd = isEnd;
  }
  if (group !== '') writes.push(group);
  return writes;
}

const count = (n: number) => n.toLocaleString('en-US');
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

const CLI_CALLS = 100_000;
const CLI_REPEATS = 3;
const PLAN_BIN = fileURLToPath(new URL('../../bin/plan.js', import.meta.url));

/** The synchronous bench tool as a tools module for `plan run --tools`. */
const TOOLS_MODULE = `const [step] = ${JSON.stringify(benchTools)};
export const tools = [{ ...step, execute: (args) => args.n }];
`;

interface CliResult {
  readonly plainMs: number;
  readonly journalMs: number;
  readonly journalBytes: number;
}

/** `plan run` on a 100k-call chain, fresh processes, with and without --journal, alternating. */
function measureCli(): CliResult {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-bench-journal-cli-'));
  try {
    const planFile = join(dir, 'plan.json');
    const toolsFile = join(dir, 'tools.mjs');
    writeFileSync(planFile, JSON.stringify(generatePlan('chain', CLI_CALLS), null, 2));
    writeFileSync(toolsFile, TOOLS_MODULE);
    const args = ['run', planFile, '--tools', toolsFile, '--concurrency', String(CONCURRENCY)];
    const timedRun = (extra: readonly string[]) => {
      const t = performance.now();
      // The summary goes to stderr; a failed run throws (exit code other than 0).
      execFileSync(process.execPath, [PLAN_BIN, ...args, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
      return performance.now() - t;
    };
    const plain: number[] = [];
    const journaled: number[] = [];
    let journalBytes = Number.NaN;
    for (let r = 0; r < CLI_REPEATS; r++) {
      plain.push(timedRun([]));
      const journalDir = join(dir, `journal-${r}`);
      journaled.push(timedRun(['--journal', journalDir]));
      const files = readdirSync(journalDir);
      journalBytes = files.length === 1 ? statSync(join(journalDir, files[0]!)).size : Number.NaN;
    }
    return { plainMs: median(plain), journalMs: median(journaled), journalBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [flag, name, size] = process.argv.slice(2);
  if (flag === '--case') {
    const [shape, kind] = name!.split(':') as [Shape, Kind];
    console.log(JSON.stringify(await measure(shape, Number(size), kind)));
    return;
  }
  if (flag !== undefined) throw new TypeError(`Expected no argument, got ${flag}`);
  console.log(
    `bench/journal: node ${process.version}; no-op calls, concurrency ${CONCURRENCY}; ` +
      `bare = no journal, no listener; events = no journal, an onEvent (as plan run has); journal = events + journal; ` +
      `median of ${repeats(10_000)} (10k) or ${repeats(100_000)} (100k) runs each after ${WARMUPS} warm-up, ` +
      `alternating, one child process per row; journal files in ${tmpdir()}\n`,
  );
  const self = fileURLToPath(import.meta.url);
  const results: CaseResult[] = [];
  for (const c of CASES) {
    results.push(
      runChildCase<CaseResult>({
        script: self,
        shape: `${c.shape}:${c.kind}`,
        size: c.calls,
        nodeFlags: ['--expose-gc'],
      }),
    );
  }
  printTable(
    [
      'shape',
      'calls',
      'tool',
      'bare ms',
      'events ms',
      'journal ms',
      'journal MB',
      'journal/events',
      `target <= ${MAX_RATIO}x`,
      'events/bare',
      'journal/bare',
      'writes ms',
      'floor/events',
    ],
    results.map((r) => [
      r.shape,
      count(r.calls),
      r.kind,
      ms(r.bareMs),
      ms(r.eventsMs),
      ms(r.journalMs),
      (r.journalBytes / 1e6).toFixed(1),
      ratio(r.journalMs, r.eventsMs),
      r.journalMs / r.eventsMs <= MAX_RATIO ? 'ok' : 'MISSED',
      ratio(r.eventsMs, r.bareMs),
      ratio(r.journalMs, r.bareMs),
      ms(r.writesMs),
      ratio(r.eventsMs + r.writesMs, r.eventsMs),
    ]),
  );
  console.log(
    "\nwrites ms: the journal's lines written again in the writes the run makes (a call:end with the starts after it), nothing else; " +
      'floor/events: (events + writes) / events, the least any journal with these crash promises costs',
  );
  const worst = Math.max(...results.map((r) => r.journalMs / r.eventsMs));
  console.log(
    `\ntarget: journal/events <= ${MAX_RATIO}x: worst ${worst.toFixed(2)}x ${worst <= MAX_RATIO ? 'ok' : 'MISSED'}\n`,
  );
  console.log(
    `plan run, chain of ${count(CLI_CALLS)} calls, sync tool, --concurrency ${CONCURRENCY}: ` +
      `one fresh process per run, median of ${CLI_REPEATS}, alternating\n`,
  );
  const cli = measureCli();
  printTable(
    ['command', 'ms', 'journal MB', 'vs plan run', `target <= ${MAX_RATIO}x`],
    [
      ['plan run', ms(cli.plainMs), '', '', ''],
      [
        'plan run --journal',
        ms(cli.journalMs),
        (cli.journalBytes / 1e6).toFixed(1),
        ratio(cli.journalMs, cli.plainMs),
        cli.journalMs / cli.plainMs <= MAX_RATIO ? 'ok' : 'MISSED',
      ],
    ],
  );
}

await main();
