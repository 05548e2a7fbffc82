import { describe, expect, it } from 'vitest';
import { formatPlanSimulation } from '../../src/cli/approvals/approval-prompt.js';
import { compile } from '../../src/compile/index.js';
import type { Tool } from '../../src/tools/tool.js';

const tools: Tool[] = [
  { name: 'pay', outputSchema: { type: 'number' } },
  { name: 'say', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  // allOf: compile's type check does not follow it, so a mismatch is left for the dry run.
  { name: 'meter', outputSchema: { allOf: [{ type: 'number' }] } },
];

function plan(calls: unknown[]) {
  const text = JSON.stringify({ type: 'plan', mode: 'lazy', plan: calls }, null, 2);
  const compiled = compile(text, { tools });
  if (!compiled.plan) throw new Error('the test plan does not compile');
  return { plan: compiled.plan, source: compiled.document!.source };
}

describe('the dry run shown before a lazy plan is approved', () => {
  it('scenarios with what each runs and skips, then critical path and parallelism', () => {
    const { plan: p, source } = plan([
      // The plan declares where a failed charge goes: scenario #1 is that failure.
      {
        _id: 'charge',
        _tool: 'pay',
        _outputPath: '†state.receipt || †state.failure',
        _onError: '†state.failure',
      },
      { _id: 'thanks', _tool: 'say', text: 'thanks', receipt: '†state.receipt' },
      { _id: 'sorry', _tool: 'say', text: '†state.failure.message' },
    ]);
    expect(formatPlanSimulation(p, { file: 'plan.json', color: false, source })).toBe(
      'dry run: 2 scenarios, 1 branch group\n' +
        '  #0  charge=0  runs 2, skips sorry\n' +
        '  #1  charge=1  runs 2, skips thanks\n' +
        '  critical path: charge -> thanks (weight 2)\n' +
        '  max parallelism: 1 (level 0: charge)\n',
    );
  });

  it('argument errors at their position', () => {
    const { plan: p, source } = plan([
      { _id: 'charge', _tool: 'meter', _outputPath: '†state.amount' },
      { _id: 'tell', _tool: 'say', text: '†state.amount' },
    ]);
    const text = formatPlanSimulation(p, { file: 'plan.json', color: false, source });
    expect(text).toMatch(/^ {2}#0 {2}\(no branches\) {2}runs 2, skips none {2}1 argument error$/m);
    expect(text).toMatch(
      /^plan\.json:13:15: error E_SIM_ARGS: argument \/text of call "tell" \(tool "say"\) must be string/m,
    );
  });

  it('compact: at most 6 scenario lines', () => {
    const calls: unknown[] = [];
    for (let i = 0; i < 8; i++)
      calls.push({ _id: `c${i}`, _tool: 'pay', _outputPath: `†state.a${i} || †state.b${i}` });
    const { plan: p } = plan(calls);
    const text = formatPlanSimulation(p, { file: 'plan.json', color: false });
    expect(text.split('\n').filter((line) => /^ {2}#\d/.test(line))).toHaveLength(6);
    expect(text).toContain('  … 3 more scenarios\n');
  });
});
