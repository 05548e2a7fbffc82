/** ToolRegistry's checks of a definition: values in range, and fields whose reads throw. */
import { describe, expect, it } from 'vitest';
import { isToolDefinitionError, type ToolDefinitionError } from '../../src/errors.js';
import { retriesOf, retryDelay } from '../../src/run/retry.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';

/** The problems `new ToolRegistry(tools)` reports. */
function problems(tools: Iterable<unknown>): readonly string[] {
  try {
    new ToolRegistry(tools as Iterable<Tool>);
  } catch (e) {
    if (isToolDefinitionError(e)) return (e as ToolDefinitionError).problems;
    throw e;
  }
  throw new Error('expected a ToolDefinitionError');
}

const POLICY = '{"limit": n, "delayMs"?: ms, "maxDelayMs"?: ms, "factor"?: x}';

describe('retry policies', () => {
  it.each([
    0,
    3,
    { limit: 0 },
    { limit: 2, delayMs: 0, maxDelayMs: 2_147_483_647, factor: 1 },
    { limit: 1, factor: 1.5 },
  ])('accepts %j', (retries) => {
    expect(new ToolRegistry([{ name: 't', retries } as Tool]).names()).toEqual(['t']);
  });

  it.each<[unknown, string[]]>([
    [-1, [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not -1`]],
    [1.5, [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not 1.5`]],
    [Number.NaN, [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not NaN`]],
    [1e300, [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not 1e+300`]],
    ['3', [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not "3"`]],
    [null, [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not null`]],
    [[2], [`"retries" must be a whole number >= 0 or a policy ${POLICY}, not an array`]],
    [{}, [`"retries.limit" is missing: a retry policy is ${POLICY}`]],
    [{ limit: -2 }, ['"retries.limit" must be a whole number >= 0, not -2']],
    [
      { limit: 2, delayMs: 'x', factor: -3 },
      [
        '"retries.delayMs" must be a number of milliseconds from 0 to 2147483647, not "x"',
        '"retries.factor" must be a finite number >= 1, not -3',
      ],
    ],
    [
      { limit: 1, dealyMs: 50 },
      ['"retries" has unknown key "dealyMs"; a retry policy has only limit, delayMs, maxDelayMs and factor'],
    ],
    [
      { limit: 1, a: 1, b: 2, c: 3, d: 4 },
      [
        '"retries" has unknown keys "a", "b", "c" and 1 more; a retry policy has only limit, delayMs, maxDelayMs and factor',
      ],
    ],
    [
      { limit: 1, delayMs: Infinity },
      ['"retries.delayMs" must be a number of milliseconds from 0 to 2147483647, not Infinity'],
    ],
    [
      { limit: 1, delayMs: 2 ** 31 },
      ['"retries.delayMs" must be a number of milliseconds from 0 to 2147483647, not 2147483648'],
    ],
    [
      { limit: 1, maxDelayMs: -1 },
      ['"retries.maxDelayMs" must be a number of milliseconds from 0 to 2147483647, not -1'],
    ],
    [{ limit: 1, factor: 0.5 }, ['"retries.factor" must be a finite number >= 1, not 0.5']],
    [{ limit: 1, factor: Infinity }, ['"retries.factor" must be a finite number >= 1, not Infinity']],
  ])('rejects %j, naming the tool, the field and the value', (retries, expected) => {
    expect(problems([{ name: 'flaky', retries }])).toEqual(expected.map((p) => `tool 'flaky': ${p}`));
  });

  it('a delay of 0 stays 0 however many retries (never NaN)', () => {
    const retries = retriesOf({ name: 't', retries: { limit: 5000, delayMs: 0 } });
    expect(retryDelay(retries, 4000)).toBe(0);
    expect(retryDelay(retriesOf({ name: 't', retries: { limit: 5000, delayMs: 1 } }), 4000)).toBe(10_000);
  });
});

describe('times', () => {
  it.each(['timeoutMs', 'estimatedMs'])('%s: 0 to 2147483647, finite', (key) => {
    expect(
      new ToolRegistry([{ name: 'a', [key]: 0 } as Tool, { name: 'b', [key]: 2_147_483_647 } as Tool]).size,
    ).toBe(2);
    for (const [value, shown] of [
      [-1, '-1'],
      [Number.NaN, 'NaN'],
      [Infinity, 'Infinity'],
      [2 ** 31, '2147483648'],
      ['100', '"100"'],
    ] as const) {
      expect(problems([{ name: 't', [key]: value }])).toEqual([
        `tool 't': "${key}" must be a number of milliseconds from 0 to 2147483647, not ${shown}`,
      ]);
    }
  });
});

describe('fields whose reads throw', () => {
  it('a getter on name, or on inputSchema, is a problem', () => {
    const noName = {
      get name(): string {
        throw new Error('name boom');
      },
    };
    const badSchema = {
      name: 'search',
      get inputSchema(): object {
        throw new TypeError('schema boom\nsecond line');
      },
    };
    expect(problems([noName, badSchema])).toEqual([
      'tool 0: reading "name" threw: name boom',
      `tool 'search': reading "inputSchema" threw: schema boom`,
    ]);
  });

  it('every field is read safely: flags, retries, execute, annotations, outputSchema', () => {
    for (const key of [
      'latent',
      'timeoutMs',
      'retries',
      'execute',
      'annotations',
      'outputSchema',
      'description',
    ]) {
      const tool = Object.defineProperty({ name: 'x' }, key, {
        enumerable: true,
        get() {
          throw new Error(`${key} boom`);
        },
      });
      expect(problems([tool])).toEqual([`tool 'x': reading "${key}" threw: ${key} boom`]);
    }
  });

  it('a retry policy whose getter throws', () => {
    const retries = {
      limit: 1,
      get delayMs(): number {
        throw new Error('delay boom');
      },
    };
    expect(problems([{ name: 'x', retries }])).toEqual([
      `tool 'x': reading "retries.delayMs" threw: delay boom`,
    ]);
  });

  it('a Proxy tool whose traps throw', () => {
    const tool = new Proxy(
      {},
      {
        get() {
          throw new Error('trap boom');
        },
      },
    );
    expect(problems([tool])).toEqual(['tool 0: reading "name" threw: trap boom']);
  });

  it('a thrown value that is not an Error, or whose message getter throws', () => {
    const throwsString = {
      get name(): string {
        throw 'plain string';
      },
    };
    const throwsHostile = {
      get name(): string {
        throw {
          get message(): string {
            throw new Error('again');
          },
        };
      },
    };
    expect(problems([throwsString, throwsHostile])).toEqual([
      'tool 0: reading "name" threw: plain string',
      'tool 1: reading "name" threw: a value that cannot be shown',
    ]);
  });

  it('an iterable of tools that throws while iterated', () => {
    const tools = {
      *[Symbol.iterator]() {
        yield { name: 'a' };
        throw new Error('iteration boom');
      },
    };
    expect(problems(tools)).toEqual(['reading the list of tools threw: iteration boom']);
  });

  it('a definition that is not an object, and a name that is not a string', () => {
    expect(problems([() => 1, { name: 7 }])).toEqual([
      'tool 0: a tool must be an object, not a function',
      'tool 1: "name" must be a non-empty string, not 7',
    ]);
  });
});

describe('schemas are bounded before ajv compiles them (they may come from an MCP server)', () => {
  it('a schema nested 100,000 deep is a problem naming the tool, the schema and the place', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) schema = { type: 'object', properties: { a: schema } };
    const [problem] = problems([{ name: 'deep', inputSchema: schema }]);
    expect(problem).toMatch(
      /^tool 'deep': "inputSchema" at \/properties\/a\/.* nests deeper than 64 levels$/,
    );
  });

  it('a cyclic schema object is a problem, not a stack overflow', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(problems([{ name: 'cyclic', outputSchema: schema }])).toEqual([
      `tool 'cyclic': "outputSchema" at /properties/self refers back to the value itself: a cycle, which JSON cannot hold`,
    ]);
  });
});
