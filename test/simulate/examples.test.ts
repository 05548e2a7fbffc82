/**
 * The dry run of every bundled example. Expectations are derived by hand from each plan:
 * which calls branch, which calls read which alternative, and the chains between calls.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate/index.js';
import { exampleNames, loadExample } from '../fixtures/fixtures.js';

function simulateExample(name: string) {
  const e = loadExample(name);
  return simulate(e.text, { tools: e.tools, input: e.input, ...(e.state && { state: e.state }) });
}

/** [choices, skipped] per scenario, in order. */
type Expected = {
  scenarios: [Record<string, number>, string[]][];
  criticalPath: string[];
  maxParallelism: number;
};

const EXPECTED: Record<string, Expected> = {
  // search -> summarize (reads results[*].snippet) -> email (reads summary): a chain, no branch.
  'lazy-research': {
    scenarios: [[{}, []]],
    criticalPath: ['search', 'summarize', 'email'],
    maxParallelism: 1,
  },
  // processPayment writes receipt || error; confirmOrder reads receipt, so it is skipped when
  // the payment takes the error alternative.
  'payment-failure': {
    scenarios: [
      [{ '0': 0 }, []],
      [{ '0': 1 }, ['1']],
    ],
    criticalPath: ['0', '1'],
    maxParallelism: 1,
  },
  // One call reading the error the state file holds.
  'payment-failure-replan': { scenarios: [[{}, []]], criticalPath: ['0'], maxParallelism: 1 },
  // Two calls reading input only, without data between them; but the first (bookFlight) is
  // an effect, so the second waits for it: effects follow program order.
  'pet-friendly-hotel': { scenarios: [[{}, []]], criticalPath: ['0', '1'], maxParallelism: 1 },
  // The history check, then the refund: the refund is an effect and waits for every earlier call.
  refund: { scenarios: [[{}, []]], criticalPath: ['0', '1'], maxParallelism: 1 },
  'refund-next-turn': { scenarios: [[{}, []]], criticalPath: ['0', '1'], maxParallelism: 1 },
  // detectLanguage -> isEnglish -> translateText: a chain.
  'schema-guided-translation': { scenarios: [[{}, []]], criticalPath: ['0', '1', '2'], maxParallelism: 1 },
  'user-profile': { scenarios: [[{}, []]], criticalPath: ['0', '1'], maxParallelism: 1 },
  // weather writes sunny || notSunny; park reads sunny, movie reads notSunny, both write
  // suggestion (movie after park: write after write), present reads suggestion: it runs
  // whichever way the weather goes.
  'weather-branch': {
    scenarios: [
      [{ weather: 0 }, ['movie']],
      [{ weather: 1 }, ['park']],
    ],
    // The plan's critical path is the heaviest of any scenario's: park and movie never both
    // run, so no path holds both (the skipped one passes its wait on, as in a run).
    criticalPath: ['weather', 'park', 'present'],
    maxParallelism: 1,
  },
};

describe('simulate: the bundled examples', () => {
  it('covers every example', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(exampleNames());
  });

  it.each(Object.keys(EXPECTED))('%s', (name) => {
    const expected = EXPECTED[name]!;
    const simulation = simulateExample(name);
    expect(simulation.scenarios.map((s) => [s.choices, s.skipped])).toEqual(expected.scenarios);
    expect(simulation.truncated).toBe(false);
    expect(simulation.criticalPath).toEqual(expected.criticalPath);
    expect(simulation.maxParallelism).toBe(expected.maxParallelism);
    // Every call either runs or is skipped, once.
    const ids = Object.keys(simulation.samples).sort();
    for (const s of simulation.scenarios) {
      expect([...s.run, ...s.skipped].sort()).toEqual(ids);
      expect(s.argumentErrors).toEqual([]);
    }
  });
});
