/** main() in-process: what a child process cannot show, such as a terminal on stderr. */
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ANSI_ESCAPE, PLANS, tempDir } from './helpers.js';

const { dir, cleanup } = tempDir({ 'invalid.json': PLANS.invalid, 'plan.json': PLANS.valid });
afterAll(cleanup);

function capture(options: { tty?: boolean; env?: Record<string, string>; stdin?: string } = {}) {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { isTTY: options.tty ?? false, write: (text: string) => (out.stderr += text) },
    stdin: Readable.from([options.stdin ?? '']),
    env: options.env ?? {},
  };
  return { io, out };
}

describe('main', () => {
  it('colors diagnostics when stderr is a terminal', async () => {
    const { io, out } = capture({ tty: true });
    expect(await main(['validate', `${dir}/invalid.json`], io)).toBe(1);
    expect(out.stderr).toMatch(ANSI_ESCAPE);
    expect(out.stdout).toBe('');
  });

  it('never colors with NO_COLOR, nor on a dumb terminal', async () => {
    for (const env of [{ NO_COLOR: '1' }, { TERM: 'dumb' }] as Record<string, string>[]) {
      const { io, out } = capture({ tty: true, env });
      expect(await main(['validate', `${dir}/invalid.json`], io)).toBe(1);
      expect(out.stderr).not.toMatch(ANSI_ESCAPE);
      expect(out.stderr).toMatch(/invalid\.json:\d+:\d+: error E_/);
    }
  });

  it('colors the one-line error of a usage problem only on a terminal', async () => {
    const tty = capture({ tty: true });
    expect(await main(['validate', 'missing.json'], tty.io)).toBe(2);
    expect(tty.out.stderr).toMatch(ANSI_ESCAPE);
    const pipe = capture();
    expect(await main(['validate', 'missing.json'], pipe.io)).toBe(2);
    expect(pipe.out.stderr).toBe("plan: error: plan file 'missing.json' does not exist; check the path\n");
  });

  it('reads stdin from the io it is given', async () => {
    const { io, out } = capture({ stdin: JSON.stringify(PLANS.valid) });
    expect(await main(['validate', '-', '--json'], io)).toBe(0);
    expect(JSON.parse(out.stdout).order).toEqual(['fetch', 'check', 'notify']);
  });

  it('returns 0 for help and version, writing them to stdout', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out.stdout).toMatch(/Usage: plan/);
    expect(help.out.stdout).toMatch(/Exit codes:/);
    const version = capture();
    expect(await main(['--version'], version.io)).toBe(0);
    expect(version.out.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('builds a fresh program per call, so options do not leak between runs', async () => {
    const first = capture();
    await main(['graph', `${dir}/plan.json`, '--format', 'dot'], first.io);
    expect(first.out.stdout).toMatch(/digraph/);
    const second = capture();
    await main(['graph', `${dir}/plan.json`], second.io);
    expect(second.out.stdout).toMatch(/flowchart TD/);
  });
});
