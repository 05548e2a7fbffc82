/**
 * A value many calls read is serialised once for the journal, `--events` and the report: one
 * 2.7 MB value passed to 300 calls was serialised 300 times by each (1.7 GB, 20-30 s). The text
 * each writes is still JSON.stringify's, so every reader reads it as before.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { journalRecords } from '../run/journal-file.js';
import { argumentsJson, eventJson, prettyJsonPreview } from '../../src/language/json/index.js';
import { tempDir } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';

const big = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}` }));
const BIG_LENGTH = JSON.stringify(big).length;
const CALLS = 40;

const plan = [
  { type: 'input', big },
  {
    type: 'plan',
    plan: Array.from({ length: CALLS }, (_, i) => ({
      _id: `c${i}`,
      _tool: 'count',
      v: '†input.big',
      n: i,
      _outputPath: `†state.o${i}`,
    })),
  },
];
const TOOLS = `export const tools = [{ name: 'count', execute: (args) => args.v.length }];\n`;

afterEach(() => vi.restoreAllMocks());

describe('arguments many calls share are serialised once', () => {
  it('plan run --journal --events --report: the shared value is stringified a few times, not once per call and sink', async () => {
    const { dir, cleanup } = tempDir({ 'plan.json': plan, 'tools.mjs': TOOLS });
    try {
      const stringify = JSON.stringify;
      let whole = 0;
      vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
        const text = stringify(...args);
        if (typeof text === 'string' && text.length >= BIG_LENGTH) whole++;
        return text;
      });
      const args = [
        'run',
        'plan.json',
        '--tools',
        'tools.mjs',
        '--journal',
        'j',
        '--events',
        '--report',
        'r.html',
      ];
      const result = await planInProcess(args, '', { cwd: dir });
      vi.restoreAllMocks();
      expect(result.code).toBe(0);
      // Before: at least one per call for each of the journal, the events and the report (120).
      expect(whole).toBeLessThan(10);

      // The events are JSON lines whose arguments are the value itself.
      const starts = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; args?: { v: unknown; n: number } })
        .filter((event) => event.type === 'call:start');
      expect(starts).toHaveLength(CALLS);
      expect(starts[7]!.args).toEqual({ v: big, n: 7 });
      // The journal reads back: a resume puts every call back without running it.
      const journal = readdirSync(join(dir, 'j')).find((name) => name.endsWith('.jsonl'))!;
      const records = journalRecords(join(dir, 'j', journal));
      expect(records.filter((record) => record.type === 'call:start')).toHaveLength(CALLS);
      const resumed = await planInProcess([...args.slice(0, 6), '--resume', '--json'], '', { cwd: dir });
      expect(resumed.code).toBe(0);
      // The report shows each call's arguments, cut at its value length.
      const html = readFileSync(join(dir, 'r.html'), 'utf8');
      expect(html).toContain('more characters not shown');
    } finally {
      cleanup();
    }
  });

  it('the texts are exactly JSON.stringify', () => {
    const shared = Object.freeze({ a: [1, 2, Object.freeze({ b: 'x\ny' })], 'k"ey': null });
    const args = { v: shared, w: 'text', x: { nested: shared }, y: [], z: {} };
    expect(argumentsJson(args)).toBe(JSON.stringify(args));
    expect(argumentsJson(args)).toBe(JSON.stringify(args)); // kept texts
    const event = { type: 'call:start', call: 'c', tool: 't', attempt: 1, args, at: 'now' };
    expect(eventJson(event)).toBe(JSON.stringify(event));
    expect(eventJson({ type: 'call:end', output: undefined, args: undefined })).toBe(
      JSON.stringify({ type: 'call:end', output: undefined, args: undefined }),
    );
    for (const value of [args, shared, {}, [], 'a "string"', 12, null, { only: {} }]) {
      const full = JSON.stringify(value, null, 2);
      for (const max of [0, 1, 5, 17, 40, 10_000]) {
        expect(prettyJsonPreview(value, max)).toEqual({ head: full.slice(0, max), length: full.length });
      }
    }
  });
});
