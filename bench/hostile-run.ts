/**
 * The run-time attacks of the second hostile-input round ("a small input buys gigabytes"): a
 * dry run of a schema with a huge `minItems`, one value passed to many arguments under `plan
 * run --journal`, `--events` and `--report` (with the plain `plan run` as the baseline), and
 * `[*]` reads of a large input (with plain reads as the baseline).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Attack, count, scaled } from './hostile-attack.js';
import type { CompileAnswer } from './hostile-build.js';

/** A tool of an MCP server whose `outputSchema` asks for an array of at least N strings. */
const dryRunMinItems: Attack = {
  name: 'dry-run-min-items',
  title: 'dry run of an `outputSchema` with a huge `minItems`',
  size: (scale) => `minItems ${scaled(1e9, scale).toExponential(0)}`,
  prepare: async (build, scale) => {
    const tools = [
      { name: 'm', outputSchema: { type: 'array', minItems: scaled(1e9, scale), items: { type: 'string' } } },
    ];
    const compiled = build.core.compile(JSON.stringify([{ _tool: 'm', _outputPath: '†state.x' }]), { tools });
    if (!compiled.ok) throw new Error('the dry-run plan did not compile');
    return async () => {
      const simulation = (await build.core.simulate(compiled.plan, { tools })) as CompileAnswer;
      const first = simulation.diagnostics[0];
      return first ? `sampled, ${first.code}` : 'sampled';
    };
  },
};

/** Where `plan run` writes: nowhere, but counted. */
function sink(): { write: (text: string) => boolean; readonly isTTY: false; readonly written: () => number } {
  let written = 0;
  return {
    write: (text: string) => {
      written += text.length;
      return true;
    },
    isTTY: false,
    written: () => written,
  };
}

/** 2 MB in 20,000 records of about 100 characters. */
function twoMegabytes(): unknown[] {
  return Array.from({ length: 20_000 }, (_, i) => ({ id: i, s: 'x'.repeat(80) }));
}

type Output = 'none' | 'journal' | 'events' | 'report';

/**
 * A plan file of about 2 MB: one input value of 2 MB, passed to each of a call's N arguments,
 * run by `plan run` in process with its output flag.
 */
function sharedArguments(output: Output): Attack {
  const flag = output === 'none' ? '' : ` --${output}`;
  return {
    name: output === 'none' ? 'shared-arguments-baseline' : `shared-arguments-${output}`,
    title:
      output === 'none'
        ? 'baseline: `plan run`, a 2 MB plan, one value to N arguments'
        : `the same, \`plan run${flag}\``,
    size: (scale) => `${count(scaled(300, scale))} arguments`,
    prepare: async (build, scale, folder) => {
      const call: Record<string, string> = { _tool: 't' };
      for (let i = 0; i < scaled(300, scale); i++) call[`a${i}`] = '†input.v';
      const planFile = join(folder, 'plan.json');
      const toolsFile = join(folder, 'tools.mjs');
      writeFileSync(
        planFile,
        JSON.stringify([
          { type: 'input', v: twoMegabytes() },
          { type: 'plan', plan: [call] },
        ]),
      );
      writeFileSync(toolsFile, "export default [{ name: 't', execute: () => 1 }];\n");
      const flags: Record<Output, string[]> = {
        none: [],
        journal: ['--journal', join(folder, 'journal')],
        events: ['--events'],
        report: ['--report', join(folder, 'report.html')],
      };
      const main = await build.cliMain();
      return async () => {
        const stdout = sink();
        const stderr = sink();
        const stdin = { isTTY: false, async *[Symbol.asyncIterator]() {} };
        const code = await main(['run', planFile, '--tools', toolsFile, ...flags[output]], {
          stdout,
          stderr,
          stdin,
          env: {},
        });
        return `exit ${code}, stdout ${(stdout.written() / 1e6).toFixed(1)} MB`;
      };
    },
  };
}

/** 20 calls reading `†input.items[*].v` (or `†input.items`, the baseline) of N items. */
function starReads(star: boolean): Attack {
  return {
    name: star ? 'star-reads' : 'star-reads-baseline',
    title: star ? '20 `[*]` reads of an N-element input' : 'baseline: 20 plain reads of it',
    size: (scale) => `${count(scaled(1_000_000, scale))} elements`,
    prepare: async (build, scale) => {
      const input = { items: Array.from({ length: scaled(1_000_000, scale) }, (_, i) => ({ v: i })) };
      const reference = star ? '†input.items[*].v' : '†input.items';
      const text = JSON.stringify(Array.from({ length: 20 }, () => ({ _tool: 't', v: reference })));
      const tools = [
        { name: 't', execute: (args: { v: unknown }) => (Array.isArray(args.v) ? args.v.length : 1) },
      ];
      return async () => {
        const compiled = build.core.compile(text, { tools, input });
        if (!compiled.ok) return 'invalid';
        return (await build.core.run(compiled.plan, { tools, input })).status;
      };
    },
  };
}

export const RUN_ATTACKS: readonly Attack[] = [
  dryRunMinItems,
  sharedArguments('none'),
  sharedArguments('journal'),
  sharedArguments('events'),
  sharedArguments('report'),
  starReads(true),
  starReads(false),
];
