/**
 * docs/plan-language.md's E_SIM_ARGS example, run as the page says: its plan and tools blocks
 * written to files, `plan validate` quiet about them, and `plan simulate` printing the page's
 * output block (exit 1).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';

function section(): { plan: string; tools: string; output: string } {
  const page = readFileSync(join(ROOT, 'docs/plan-language.md'), 'utf8');
  const start = page.indexOf('### E_SIM_ARGS');
  const text = page.slice(start, page.indexOf('\n### ', start + 1));
  const blocks = [...text.matchAll(/```(json)?\n([\s\S]*?)```/g)].map((m) => m[2]!);
  return { plan: blocks[0]!, tools: blocks[1]!, output: blocks[2]! };
}

describe('the E_SIM_ARGS example of docs/plan-language.md', () => {
  it('validates clean and simulates to the output the page shows', async () => {
    const { plan, tools, output } = section();
    const dir = mkdtempSync(join(tmpdir(), 'sim-args-doc-'));
    writeFileSync(join(dir, 'plan.json'), plan);
    writeFileSync(join(dir, 'tools.json'), tools);
    const validated = await planInProcess(['validate', 'plan.json', '--tools', 'tools.json'], '', {
      cwd: dir,
    });
    expect({ code: validated.code, stderr: validated.stderr }).toEqual({
      code: 0,
      stderr: 'plan.json: valid, 2 calls, 1 edge, 0 warnings\n',
    });
    const simulated = await planInProcess(['simulate', 'plan.json', '--tools', 'tools.json'], '', {
      cwd: dir,
    });
    expect(simulated.code).toBe(1);
    expect(simulated.stdout + simulated.stderr).toBe(output);
  });
});
