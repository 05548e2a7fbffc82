import { describe, expect, it, vi } from 'vitest';
import {
  PLAN_MODE_STATES,
  PlanMode,
  type PlanModeChange,
  type PlanModeState,
} from '../../src/agent/index.js';
import { isPlanModeTransitionError } from '../../src/index.js';

/** A latch in `state`, reached through real transitions (plan 'old plan' where one is kept). */
function latchIn(state: PlanModeState): PlanMode {
  const latch = new PlanMode({ onObserverError: () => {} });
  if (state !== 'off') latch.enter();
  if (state === 'executing') latch.exit('old plan');
  return latch;
}

type Action = 'enter' | 'exit' | 'reset';
type Outcome = { state: PlanModeState; plan: string | null; changed: boolean } | 'error';

// Every cell of the transition table in src/agent/plan-mode/plan-mode.ts (and the README).
const TABLE: Record<PlanModeState, Record<Action, Outcome>> = {
  off: {
    enter: { state: 'planning', plan: null, changed: true },
    exit: 'error',
    reset: { state: 'off', plan: null, changed: false },
  },
  planning: {
    enter: { state: 'planning', plan: null, changed: false },
    exit: { state: 'executing', plan: 'new plan', changed: true },
    reset: { state: 'off', plan: null, changed: true },
  },
  executing: {
    enter: { state: 'planning', plan: 'old plan', changed: true },
    exit: 'error',
    reset: { state: 'off', plan: null, changed: true },
  },
};

describe('PlanMode transitions', () => {
  for (const from of PLAN_MODE_STATES) {
    for (const action of ['enter', 'exit', 'reset'] as const) {
      const expected = TABLE[from][action];
      it(`${from} + ${action}() -> ${expected === 'error' ? 'PlanModeTransitionError' : expected.state}`, () => {
        const latch = latchIn(from);
        const before = latch.toJSON();
        const seen: PlanModeChange[] = [];
        latch.subscribe((change) => {
          seen.push(change);
        });
        const act = () => (action === 'exit' ? latch.exit('new plan') : latch[action]());
        if (expected === 'error') {
          let error: unknown;
          try {
            act();
          } catch (e) {
            error = e;
          }
          expect(isPlanModeTransitionError(error)).toBe(true);
          expect((error as Error).message).toContain(`'${from}'`);
          expect(latch.toJSON()).toEqual(before);
          expect(seen).toEqual([]);
          return;
        }
        const result = act();
        if (action !== 'exit') expect(result).toBe(expected.changed);
        expect(latch.state).toBe(expected.state);
        expect(latch.plan).toBe(expected.plan);
        expect(latch.isPlanning).toBe(expected.state === 'planning');
        expect(seen).toEqual(
          expected.changed ? [{ action, previous: from, state: expected.state, plan: expected.plan }] : [],
        );
      });
    }
  }

  it('starts off with no plan', () => {
    const latch = new PlanMode();
    expect([latch.state, latch.plan, latch.isPlanning]).toEqual(['off', null, false]);
  });

  it('exit() with a plan that is not a string is a TypeError and changes nothing', () => {
    const latch = latchIn('planning');
    expect(() => latch.exit(42 as unknown as string)).toThrow(TypeError);
    expect(() => latch.exit(42 as unknown as string)).toThrow(/plan must be a string, not number 42/);
    expect(latch.state).toBe('planning');
  });

  it('rejects bad options with a TypeError naming the value', () => {
    expect(() => new PlanMode({ onObserverError: 'log' as never })).toThrow(
      /onObserverError must be a function, not "log"/,
    );
    expect(() => new PlanMode(null as never)).toThrow(TypeError);
    expect(() => new PlanMode().subscribe(3 as never)).toThrow(/observer must be a function, not number 3/);
  });
});

describe('PlanMode observers', () => {
  it('an observer that throws breaks neither the latch nor the other observers; the error goes to onObserverError', () => {
    const errors: [unknown, PlanModeChange][] = [];
    const latch = new PlanMode({ onObserverError: (error, change) => errors.push([error, change]) });
    const before: string[] = [];
    const after: string[] = [];
    latch.subscribe((c) => {
      before.push(c.state);
    });
    latch.subscribe(() => {
      throw new Error('observer bug');
    });
    latch.subscribe((c) => {
      after.push(c.state);
    });
    latch.enter();
    latch.exit('p');
    expect(latch.state).toBe('executing');
    expect(before).toEqual(['planning', 'executing']);
    expect(after).toEqual(['planning', 'executing']);
    expect(errors.map(([e, c]) => [(e as Error).message, c.state])).toEqual([
      ['observer bug', 'planning'],
      ['observer bug', 'executing'],
    ]);
  });

  it('a rejected promise from an observer goes to onObserverError too', async () => {
    const onObserverError = vi.fn();
    const latch = new PlanMode({ onObserverError });
    latch.subscribe(async () => {
      throw new Error('async bug');
    });
    latch.enter();
    await new Promise((r) => setTimeout(r, 0));
    expect(onObserverError).toHaveBeenCalledTimes(1);
    expect((onObserverError.mock.calls[0]![0] as Error).message).toBe('async bug');
    expect(latch.state).toBe('planning');
  });

  it('without onObserverError the error is written to console.error, not swallowed', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const latch = new PlanMode();
      latch.subscribe(() => {
        throw new Error('loud');
      });
      latch.enter();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]![1]).toBeInstanceOf(Error);
      expect(latch.state).toBe('planning');
    } finally {
      spy.mockRestore();
    }
  });

  it('an onObserverError that throws itself still leaves the latch working', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const latch = new PlanMode({
        onObserverError: () => {
          throw new Error('handler bug');
        },
      });
      const seen: string[] = [];
      latch.subscribe(() => {
        throw new Error('observer bug');
      });
      latch.subscribe((c) => {
        seen.push(c.state);
      });
      latch.enter();
      expect(seen).toEqual(['planning']);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('unsubscribe stops the observer; calling it twice is harmless', () => {
    const latch = new PlanMode();
    const seen: string[] = [];
    const stop = latch.subscribe((c) => {
      seen.push(c.state);
    });
    latch.enter();
    stop();
    stop();
    latch.exit('p');
    expect(seen).toEqual(['planning']);
  });

  it('the same function subscribed twice is called twice, and each unsubscribe removes one', () => {
    const latch = new PlanMode();
    const seen: string[] = [];
    const observer = (c: PlanModeChange) => {
      seen.push(c.state);
    };
    const first = latch.subscribe(observer);
    latch.subscribe(observer);
    latch.enter();
    first();
    latch.reset();
    expect(seen).toEqual(['planning', 'planning', 'off']);
  });

  it('an observer that flips the latch: every observer sees the changes in order', () => {
    const latch = new PlanMode();
    const a: string[] = [];
    const b: string[] = [];
    latch.subscribe((c) => {
      a.push(c.state);
      if (c.state === 'planning') latch.exit('auto');
    });
    latch.subscribe((c) => {
      b.push(c.state);
    });
    latch.enter();
    expect(latch.state).toBe('executing');
    expect(a).toEqual(['planning', 'executing']);
    expect(b).toEqual(['planning', 'executing']);
  });

  it('an observer unsubscribed by an earlier one during a change is not called', () => {
    const latch = new PlanMode();
    const seen: string[] = [];
    let stopSecond = () => {};
    latch.subscribe(() => stopSecond());
    stopSecond = latch.subscribe(() => {
      seen.push('second');
    });
    latch.enter();
    expect(seen).toEqual([]);
  });
});

describe('PlanMode persistence', () => {
  for (const state of PLAN_MODE_STATES) {
    it(`round trip from ${state}, through JSON text`, () => {
      const latch = latchIn(state);
      const text = JSON.stringify(latch);
      const restored = PlanMode.from(JSON.parse(text));
      expect(restored.toJSON()).toEqual(latch.toJSON());
      expect(PlanMode.from(text).toJSON()).toEqual(latch.toJSON());
      expect(restored.isPlanning).toBe(state === 'planning');
    });
  }

  it('a restored latch keeps working and takes options', () => {
    const onObserverError = vi.fn();
    const restored = PlanMode.from({ version: 1, state: 'planning', plan: 'draft' }, { onObserverError });
    restored.subscribe(() => {
      throw new Error('x');
    });
    restored.exit('final');
    expect([restored.state, restored.plan]).toEqual(['executing', 'final']);
    expect(onObserverError).toHaveBeenCalledTimes(1);
  });

  const garbage: [string, unknown, RegExp][] = [
    ['a number', 42, /expected an object like .*, not number 42/],
    ['null', null, /not null/],
    ['an array', [], /not an array/],
    ['text that is not JSON', '{"state": ', /not JSON/],
    ['no version', { state: 'off', plan: null }, /"version" must be 1, not undefined/],
    ['another version', { version: 2, state: 'off', plan: null }, /"version" must be 1, not number 2/],
    [
      'an unknown state',
      { version: 1, state: 'paused', plan: null },
      /"state" must be one of off, planning, executing, not "paused"/,
    ],
    [
      'a plan of the wrong type',
      { version: 1, state: 'planning', plan: 7 },
      /"plan" must be a string or null/,
    ],
    ['off with a plan', { version: 1, state: 'off', plan: 'p' }, /must be null when the state is 'off'/],
    [
      'executing without a plan',
      { version: 1, state: 'executing', plan: null },
      /must be a string when the state is 'executing'/,
    ],
    ['an unknown key', { version: 1, state: 'off', plan: null, observers: [] }, /unknown key "observers"/],
  ];
  for (const [what, input, message] of garbage) {
    it(`from() refuses ${what} with a TypeError that says what is wrong`, () => {
      expect(() => PlanMode.from(input)).toThrow(TypeError);
      expect(() => PlanMode.from(input)).toThrow(message);
    });
  }
});
