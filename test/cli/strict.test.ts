/** `--strict` on validate, graph, simulate, run and agent: every warning is an error, exit 1. In process. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

/** A missing † (W_MISSING_DAGGER): valid, with a warning, unless --strict. */
const bare = [
  { _id: 'place', _tool: 'geocode', city: 'Paris', _outputPath: '†state.place' },
  { _id: 'weather', _tool: 'getWeather', place: 'state.place', _outputPath: '†state.weather' },
];
const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = new URL('./ran.log', import.meta.url);
const ran = (name, value) => { appendFileSync(log, name + '\\n'); return value; };
export const tools = [
  { name: 'geocode', outputSchema: { type: 'string' }, execute: ({ city }) => ran('geocode', city) },
  { name: 'getWeather', outputSchema: { type: 'string' }, execute: () => ran('getWeather', 'sunny') },
];
`;
const fixed = bare.map((call) => (call._id === 'weather' ? { ...call, place: '†state.place' } : call));
const text = (value: unknown) => ({ text: JSON.stringify(value) });

const { dir, cleanup } = tempDir({
  'bare.json': bare,
  'tools.mjs': TOOLS,
  'repeat.json': [
    text({ calls: bare, output: null }),
    text({ calls: bare, output: null }),
    text({ calls: bare, output: null }),
  ],
  'fixed.json': [
    text({ calls: bare, output: null }),
    text({ calls: fixed, output: null }),
    text({ calls: [], output: 'sunny' }),
  ],
});
afterAll(cleanup);

const plan = (args: string[]) => planInProcess(args, '', { cwd: dir });
const ran = () => {
  try {
    return readFileSync(join(dir, 'ran.log'), 'utf8');
  } catch {
    return '';
  }
};
const STRICT_LINE =
  /^bare\.json:\d+:\d+: error W_MISSING_DAGGER: "state\.place" is passed as text, .+ \(strict\)\n {2}hint: /m;

describe('--strict', () => {
  it('validate: the warning is an error with its code, noted (strict); exit 1 (0 without it)', async () => {
    const lenient = await plan(['validate', 'bare.json']);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(/warning W_MISSING_DAGGER/);
    const strict = await plan(['validate', 'bare.json', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(STRICT_LINE);
    expect(strict.stderr).toMatch(/bare\.json: invalid, 1 error, 0 warnings\n/);
    const json = await plan(['validate', 'bare.json', '--strict', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      diagnostics: [{ severity: 'error', code: 'W_MISSING_DAGGER' }],
    });
  });

  it('graph and simulate: exit 1, nothing drawn or simulated', async () => {
    expect((await plan(['graph', 'bare.json'])).code).toBe(0);
    const graph = await plan(['graph', 'bare.json', '--strict']);
    expect(graph.code).toBe(1);
    expect(graph.stdout).toBe('');
    expect(graph.stderr).toMatch(STRICT_LINE);
    expect((await plan(['simulate', 'bare.json', '--tools', 'tools.mjs'])).code).toBe(0);
    const simulated = await plan(['simulate', 'bare.json', '--tools', 'tools.mjs', '--strict']);
    expect(simulated.code).toBe(1);
    expect(simulated.stderr).toMatch(STRICT_LINE);
  });

  it('run: exit 1 before any call runs', async () => {
    const before = ran();
    const strict = await plan(['run', 'bare.json', '--tools', 'tools.mjs', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(STRICT_LINE);
    expect(ran()).toBe(before);
    const lenient = await plan(['run', 'bare.json', '--tools', 'tools.mjs']);
    expect(lenient.code).toBe(0);
    expect(ran().slice(before.length)).toBe('geocode\ngetWeather\n');
  });

  it('agent: a solution with a warning goes back for repair; still there after the repairs, exit 1', async () => {
    const agent = (turns: string, strict: boolean) =>
      plan([
        'agent',
        'weather in Paris',
        '--tools',
        'tools.mjs',
        '--model',
        `scripted:${turns}`,
        ...(strict ? ['--strict'] : []),
      ]);
    const before = ran();
    const stuck = await agent('repeat.json', true);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toMatch(/W_MISSING_DAGGER: .+ \(strict\)/);
    expect(ran()).toBe(before);
    const repaired = await agent('fixed.json', true);
    expect(repaired.code).toBe(0);
    expect(ran().slice(before.length)).toBe('geocode\ngetWeather\n');
  });

  it('agent: --strict is for the plan loop', async () => {
    const r = await plan([
      'agent',
      'x',
      '--tools',
      'tools.mjs',
      '--model',
      'scripted:fixed.json',
      '--todos',
      '--strict',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--strict is for the plan loop/);
  });
});
