/**
 * The scripted agent example of docs/agents.md runs as the page says: the plan loop's two
 * solutions and the plan-mode conversation, offline, each recording the price once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { planInProcess } from '../cli/in-process.js';

const EXAMPLE = fileURLToPath(new URL('../../docs/examples/scripted-agent/', import.meta.url));
const page = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** `plan agent` with the example's tools and script, in a fresh folder for prices.log. */
async function agent(args: string[], script: string) {
  dir = mkdtempSync(join(tmpdir(), 'planmode-scripted-'));
  const result = await planInProcess(
    ['agent', ...args, '--tools', join(EXAMPLE, 'tools.mjs'), '--model', `scripted:${join(EXAMPLE, script)}`],
    '',
    { cwd: dir },
  );
  return { ...result, log: readFileSync(join(dir, 'prices.log'), 'utf8') };
}

describe('docs/examples/scripted-agent', () => {
  it('the plan loop: the first solution looks the price up and records it, the second answers', async () => {
    const r = await agent(['ACME'], 'solve.json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ price: 42 });
    expect(r.log).toBe('42\n');
    expect(r.stderr).toContain('solution 1: 2 call(s)\n');
    expect(r.stderr).toContain('solution 2: 0 call(s)\n');
    expect(page).toContain('solution 2: 0 call(s)\n{\n  "price": 42\n}\n');
  });

  it('plan mode: the lookup while planning, the plan approved, the record after it, the answer', async () => {
    const r = await agent(['record the ACME price', '--plan-mode', '--yes'], 'plan-mode.json');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Recorded 42.\n');
    expect(r.log).toBe('42\n');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      '→ lookup {"symbol":"ACME"}',
      '✓ lookup: 42',
      '→ exit_plan {"plan":"Record the ACME price."}',
      // --yes answers in a person's place, and says so.
      'approved by --yes: plan "Record the ACME price."',
      '✓ exit_plan: The plan was approved. Plan mode is over; carry the plan out next.',
      '→ record {"line":42}',
      '✓ record: written',
      'Recorded 42.', // the model's text, as it streams
    ]);
    for (const line of lines) expect(page).toContain(`${line}\n`);
  });
});
