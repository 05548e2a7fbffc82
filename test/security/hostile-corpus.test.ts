/**
 * The hostile-input corpus: several hundred malformed, huge, deep and adversarial plans, tool
 * results and journals, each through compile, run and the CLI. Every one must end in a
 * documented exit code with a located diagnostic or a failed call, never a stack trace, a
 * hang (each test's timeout is the guard) or unbounded memory (the biggest cases run again in
 * a child process whose heap is capped).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compile,
  type CompileResult,
  DEFAULT_LIMITS,
  DIAGNOSTIC_CODES,
  resolveLimits,
  run,
  type Tool,
} from '../../src/index.js';
import { CALL_STATUSES } from '../../src/run/index.js';
import { ROOT, tempDir } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';
import { hostileJournals } from './hostile/journals.js';
import { CORPUS_TOOLS, hostilePlans, type PlanCase } from './hostile/plans.js';
import { CORPUS_TEXT_LIMIT, hostileResults, resultsModule } from './hostile/results.js';

/** Generous: a case that takes this long has hung; none comes near it. */
const GUARD_MS = 30_000;

const { dir, cleanup } = tempDir({
  'manifest.json': { tools: CORPUS_TOOLS },
  'tools.mjs': `
    export const tools = [
      { name: 't', execute: (args) => args },
      { name: 'typed', inputSchema: ${JSON.stringify(CORPUS_TOOLS[1]!.inputSchema)}, execute: (args) => args },
      { name: 'think', latent: true },
    ];
  `,
});
afterAll(cleanup);

const RUN_TOOLS: Tool[] = [
  { name: 't', execute: (args) => args },
  { name: 'typed', inputSchema: CORPUS_TOOLS[1]!.inputSchema, execute: (args) => args },
  { name: 'think', latent: true },
];

/** No stack trace, and nothing that reads like an internal error. */
function expectNoCrash(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at \S+ \(/);
  expect(stderr).not.toMatch(/internal error/);
}

function expectWellFormed(result: CompileResult, limits: Partial<typeof DEFAULT_LIMITS>): void {
  const max = resolveLimits(limits).maxDiagnostics;
  expect(result.diagnostics.length).toBeLessThanOrEqual(max + 1);
  for (const d of result.diagnostics) {
    expect(DIAGNOSTIC_CODES).toContain(d.code);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
  }
  if (!result.ok) expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
}

/** Texts this long go through the CLI in the heap-capped child only. */
function isBig(c: PlanCase): boolean {
  return c.text.length > 500_000;
}

function limitArgs(limits: object): string[] {
  return Object.entries(limits).flatMap(([name, value]) => ['--limit', `${name}=${String(value)}`]);
}

describe('hostile plans: compile, run and plan validate/run', () => {
  const cases = hostilePlans();
  const file = (i: number) => join(dir, `plan-${i}.json`);
  /** Each case's verdict in this process, for the child's to be checked against. */
  const compiledOk = new Map<number, boolean>();
  beforeAll(() => cases.forEach((c, i) => writeFileSync(file(i), c.text)));

  it('has several hundred cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(250);
  });

  it.each(cases.map((c, i) => [c.name, c, i] as const))(
    '%s',
    async (_name, c: PlanCase, i: number) => {
      const limits = c.limits ?? {};
      const result = compile(c.text, { tools: CORPUS_TOOLS, limits });
      compiledOk.set(i, result.ok);
      expectWellFormed(result, limits);
      if (c.expect === 'valid') expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      if (c.expect === 'invalid') {
        expect(result.ok).toBe(false);
        if (c.code) expect(result.diagnostics.map((d) => d.code)).toContain(c.code);
      }

      // The biggest texts go through the CLI once, in the heap-capped child below.
      if (!isBig(c)) {
        const validated = await planInProcess([
          'validate',
          file(i),
          '--tools',
          join(dir, 'manifest.json'),
          '--json',
          ...limitArgs(limits),
        ]);
        expectNoCrash(validated.stderr);
        expect(validated.code).toBe(result.ok ? 0 : 1);
        expect((JSON.parse(validated.stdout) as { ok: boolean }).ok).toBe(result.ok);
      }

      if (!result.ok) return;
      const ran = await run(result.plan!, { tools: RUN_TOOLS, limits });
      for (const report of ran.calls) expect(CALL_STATUSES).toContain(report.status);
      expect(JSON.stringify(ran.state).length).toBeLessThanOrEqual(resolveLimits(limits).maxTextLength);

      const cli = await planInProcess([
        'run',
        file(i),
        '--tools',
        join(dir, 'tools.mjs'),
        '--json',
        ...limitArgs(limits),
      ]);
      expectNoCrash(cli.stderr);
      expect(cli.code).toBe(ran.status === 'succeeded' ? 0 : 3);
      expect((JSON.parse(cli.stdout) as { status: string }).status).toBe(ran.status);
    },
    GUARD_MS,
  );

  it('the biggest cases stay within a 256 MB heap (a child process, all of them in one)', () => {
    const big = cases.map((c, i) => ({ c, i })).filter(({ c }) => isBig(c));
    expect(big.length).toBeGreaterThan(5);
    const script = `
        const { main } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/src/cli/main.js')).href)});
        const quiet = { write: () => true };
        const codes = [];
        for (const [file, limits] of ${JSON.stringify(big.map(({ c, i }) => [file(i), limitArgs(c.limits ?? {})]))}) {
          codes.push(await main(['validate', file, '--tools', ${JSON.stringify(join(dir, 'manifest.json'))}, '--json', ...limits],
            { stdout: quiet, stderr: quiet, stdin: [], env: {} }));
        }
        process.stdout.write(JSON.stringify(codes));
      `;
    const child = spawnSync(
      process.execPath,
      ['--max-old-space-size=256', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const codes = JSON.parse(child.stdout) as number[];
    expect(codes).toHaveLength(big.length);
    // The same verdict as compile gives in this process, within the capped heap.
    const verdicts = big.map(({ i }) => (compiledOk.get(i) ? 0 : 1));
    expect(codes).toEqual(verdicts);
  }, 120_000);
});

describe('hostile tool results and thrown values: run and plan run', () => {
  const cases = hostileResults();
  const moduleFile = join(dir, 'results.mjs');
  let tools: Tool[] = [];
  beforeAll(async () => {
    writeFileSync(moduleFile, resultsModule(cases));
    ({ tools } = (await import(pathToFileURL(moduleFile).href)) as { tools: Tool[] });
    cases.forEach((_c, i) =>
      writeFileSync(
        join(dir, `result-plan-${i}.json`),
        JSON.stringify([
          { _tool: `r${i}`, _outputPath: '†state.out' },
          { _tool: 'use', v: '†state.out', _outputPath: '†state.used' },
        ]),
      ),
    );
  });
  const limits = { maxTextLength: CORPUS_TEXT_LIMIT };

  it.each(cases.map((c, i) => [c.name, c, i] as const))(
    '%s',
    async (_name, c, i) => {
      const plan = readFileSync(join(dir, `result-plan-${i}.json`), 'utf8');
      const result = await run(plan, { tools, limits });
      const [made, used] = result.calls;
      expect(() => JSON.stringify(result)).not.toThrow();
      if (c.outcome === 'ok') {
        expect(made!.status).toBe('succeeded');
        expect(JSON.stringify(result.state.out)).toBe(c.written);
        expect(used!.status).toBe('succeeded');
      } else {
        expect(made!.status).toBe('failed');
        expect(used!.status).toBe('upstream_failed');
        if (c.outcome !== 'THROWN') expect(made!.error!.code).toBe(c.outcome);
        expect(made!.error!.message.length).toBeGreaterThan(0);
        expect(made!.error!.message.length).toBeLessThan(20_000);
      }

      const cli = await planInProcess([
        'run',
        join(dir, `result-plan-${i}.json`),
        '--tools',
        moduleFile,
        '--json',
        ...limitArgs(limits),
      ]);
      expectNoCrash(cli.stderr);
      expect(cli.code).toBe(c.outcome === 'ok' ? 0 : 3);
      const out = JSON.parse(cli.stdout) as { calls: { status: string; error: { code?: string } | null }[] };
      expect(out.calls[0]!.status).toBe(made!.status);
      expect(out.calls[0]!.error?.code).toBe(made!.error?.code);
    },
    GUARD_MS,
  );
});

/** A journal the executor wrote, made before the tests are collected: its variants are the cases. */
async function writtenJournal(): Promise<{ plan: string; tools: string; name: string; text: string }> {
  const plan = join(dir, 'journal-plan.json');
  const tools = join(dir, 'journal-tools.mjs');
  writeFileSync(
    plan,
    JSON.stringify([
      { _id: 'fetch', _tool: 'get_user', _outputPath: '†state.user' },
      { _id: 'greet', _tool: 'greet', name: '†state.user.name', _outputPath: '†state.greeting' },
    ]),
  );
  writeFileSync(
    tools,
    `export const tools = [
      { name: 'get_user', outputSchema: { type: 'object', required: ['name'] }, execute: () => ({ name: 'Ada' }) },
      { name: 'greet', execute: (a) => 'hello ' + a.name },
    ];`,
  );
  const first = join(dir, 'journal-original');
  const { code } = await planInProcess(['run', plan, '--tools', tools, '--journal', first, '--json']);
  if (code !== 0) throw new Error(`the journal's first run exited ${code}`);
  const name = readdirSync(first)[0]!;
  return { plan, tools, name, text: readFileSync(join(first, name), 'utf8') };
}

const journal = await writtenJournal();

describe('hostile journals: plan run --resume', () => {
  const variants = hostileJournals(journal.text);

  it.each(variants.map((v, k) => [v.name, v, k] as const))(
    '%s',
    async (_name, variant, k) => {
      const journalDir = join(dir, `journal-${k}`);
      mkdirSync(journalDir, { recursive: true });
      writeFileSync(join(journalDir, journal.name), variant.content);
      const before = readFileSync(join(journalDir, journal.name));
      const cli = await planInProcess([
        'run',
        journal.plan,
        '--tools',
        journal.tools,
        '--journal',
        journalDir,
        '--resume',
        '--json',
        ...limitArgs({ maxTextLength: CORPUS_TEXT_LIMIT }),
      ]);
      expectNoCrash(cli.stderr);
      if (variant.outcome === 'refused') {
        expect({ code: cli.code, stdout: cli.stdout }).toEqual({ code: 2, stdout: '' });
        expect(cli.stderr).toMatch(/^plan: error: [^\n]*journal[^\n]*\n$/);
        // Refused before anything ran: the file is as it was.
        expect(readFileSync(join(journalDir, journal.name)).equals(before)).toBe(true);
      } else {
        expect(cli.code).toBe(0);
        expect((JSON.parse(cli.stdout) as { state: unknown }).state).toEqual({
          user: { name: 'Ada' },
          greeting: 'hello Ada',
        });
      }
    },
    GUARD_MS,
  );
});
