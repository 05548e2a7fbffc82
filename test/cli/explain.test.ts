/** `plan explain`: the three answers as text and as JSON (schemas/explain-output.schema.json), bounded; unknown ids. */
import { afterAll, describe, expect, it } from 'vitest';
import { errorsOf } from '../schemas/ajv.js';
import { tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const WEATHER = [
  { _id: 'weather', _tool: 'getWeather', city: 'Paris', _outputPath: '†state.sunny || †state.notSunny' },
  { _id: 'park', _tool: 'findPark', weather: '†state.sunny', _outputPath: '†state.park' },
  { _id: 'movie', _tool: 'findMovie', weather: '†state.notSunny', _outputPath: '†state.movie' },
  { _id: 'present', _tool: 'present', idea: '†state.park || †state.movie' },
  { _id: 'log', _tool: 'present', idea: 'done', _after: ['park'] },
  { _id: 'alone', _tool: 'present', idea: 'hi' },
];

const { dir, cleanup } = tempDir({
  'weather.json': WEATHER,
  'tools.json': {
    tools: ['getWeather', 'findPark', 'findMovie', 'present'].map((name) => ({
      name,
      annotations: { readOnlyHint: true },
    })),
  },
  'invalid.json': [{ _tool: 'x', a: '†state.nothing' }],
});
afterAll(cleanup);
const plan = (args: string[]) => planInProcess(args, '', { cwd: dir });

describe('plan explain', () => {
  it('says why a call waits, what its failure would block and which parts are independent', async () => {
    const r = await plan(['explain', 'weather.json', 'park', '--tools', 'tools.json']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      [
        'park (findPark), call 1 of the plan',
        '',
        'Waits for 1 call:',
        '  weather (getWeather): †state.sunny',
        'Longest chain to it: 2 calls:',
        '  weather',
        '  → park  (†state.sunny)',
        '',
        '2 calls depend on it.',
        'If it fails unhandled (or is held back by a failure):',
        '  upstream_failed: log (1)',
        '  may still run: present (1)',
        'If it is skipped:',
        '  may still run: present, log (2)',
        '',
        "Independent parts: 2 (no edge between them); this call's part: weather, park, movie, present, log (5)",
        '  alone (1)',
        '',
      ].join('\n'),
    );
  });

  it('prints one JSON object that schemas/explain-output.schema.json describes', async () => {
    const r = await plan(['explain', 'weather.json', 'weather', '--tools', 'tools.json', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(errorsOf('explain-output.schema.json', json)).toEqual([]);
    expect(json).toMatchObject({
      call: 'weather',
      blocks: { descendants: 4, ifFailed: { upstreamFailed: { ids: ['park', 'movie', 'present', 'log'] } } },
    });
    expect(errorsOf('explain-output.schema.json', { ...json, blocks: {} })).not.toEqual([]);
  });

  it('bounds every list with --max and says how many more', async () => {
    const r = await plan(['explain', 'weather.json', 'weather', '--json', '--max', '1']);
    const json = JSON.parse(r.stdout) as { blocks: { ifFailed: { upstreamFailed: unknown } } };
    expect(json.blocks.ifFailed.upstreamFailed).toEqual({ ids: ['park'], total: 4, more: 3 });
    const text = await plan(['explain', 'weather.json', 'weather', '--max', '1']);
    expect(text.stdout).toContain('  upstream_failed: park … and 3 more (4)');
    // Without --tools a note says so, as plan graph's does.
    expect(text.stderr).toMatch(/^plan: note: no --tools given/);
  });

  it('names an unknown call with the nearest id, exit 2', async () => {
    const r = await plan(['explain', 'weather.json', 'presnet']);
    expectOneLineUsageError(
      r,
      /^plan: error: weather\.json: the plan has no call 'presnet'; did you mean 'present'\? \(a call's id is its _id, or its 0-based index when it has none\)\n$/,
    );
    expectOneLineUsageError(
      await plan(['explain', 'weather.json', 'park', '--max', '0']),
      /--max must be a whole number >= 1/,
    );
  });

  it('exits 1 with the diagnostics on an invalid plan', async () => {
    const r = await plan(['explain', 'invalid.json', '0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('E_UNRESOLVED');
  });
});
