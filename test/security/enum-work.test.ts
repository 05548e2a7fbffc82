/**
 * A writer's `enum` against a reader's `enum` costs time in proportion to the two lists, not to
 * their product: 50k values each took 53 s (the type check compared each value of one with the
 * values of the other, and ajv's draft-07 meta-schema compared every pair of an enum's values
 * for uniqueness before the schema was compiled). Work is counted, never timed.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Tool, ToolRegistry } from '../../src/index.js';
import { arraySteps } from './array-steps.js';

function enumTools(n: number, shared: unknown[] = ['v0']): Tool[] {
  const written = Array.from({ length: n }, (_, i) => `v${i}`);
  const allowed = [...Array.from({ length: n }, (_, i) => `w${i}`), ...shared];
  return [
    { name: 'write', outputSchema: { type: 'string', enum: written }, execute: () => 'v0' },
    {
      name: 'read',
      inputSchema: { type: 'object', properties: { x: { type: 'string', enum: allowed } } },
      execute: () => null,
    },
  ];
}

const plan = [
  { _tool: 'write', _outputPath: '†state.x' },
  { _tool: 'read', x: '†state.x' },
];

describe("a writer's enum against a reader's enum", () => {
  function stepsAt(n: number): number {
    const tools = new ToolRegistry(enumTools(n));
    return arraySteps('some', () => {
      const result = compile(plan, { tools });
      expect(result.ok).toBe(true);
      // One value fits, the others do not: the reference may fit, which is no diagnostic.
      expect(result.diagnostics).toEqual([]);
    });
  }

  it('is checked value by value through a set (4N values: about 4 times the steps, not 16)', () => {
    const small = stepsAt(500);
    const large = stepsAt(2_000);
    // 76db711 scanned the reader's values once per writer's value: N² steps.
    expect(large).toBeLessThan(5 * small + 1_000);
    expect(large).toBeLessThan(100_000);
  });

  it('still finds that no value fits', () => {
    const result = compile(plan, { tools: enumTools(100, []) });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['E_REF_TYPE']);
  });

  /** Tools listing `n` objects each, none of the writer's among the reader's. */
  function objectEnumTools(n: number): Tool[] {
    const objects = Array.from({ length: n }, (_, i) => ({ id: i, tags: ['a', 'b'] }));
    const others = objects.map((o) => ({ ...o, id: -o.id - 1 }));
    return [
      { name: 'write', outputSchema: { enum: objects }, execute: () => objects[0]! },
      {
        name: 'read',
        inputSchema: { type: 'object', properties: { x: { enum: others } } },
        execute: () => null,
      },
    ];
  }

  it('compares listed objects within a budget, and a value past it may match', () => {
    // 20 × 20 pairs are compared: none fits.
    expect(compile(plan, { tools: objectEnumTools(20) }).diagnostics.map((d) => d.code)).toEqual([
      'E_REF_TYPE',
    ]);
    // 4M pairs are past the budget: "may match", not a certain E_REF_TYPE.
    expect(compile(plan, { tools: objectEnumTools(2_000) }).diagnostics).toEqual([]);
  });
});

describe("a tool schema's enum", () => {
  it('is not checked for duplicates pair by pair (draft-07, like 2020-12, accepts them)', () => {
    const registry = new ToolRegistry([
      { name: 'pick', inputSchema: { type: 'object', properties: { x: { enum: ['a', 'b', 'a'] } } } },
    ]);
    expect(registry.has('pick')).toBe(true);
  });

  it('is still checked against the meta-schema otherwise', () => {
    expect(
      () =>
        new ToolRegistry([
          { name: 'pick', inputSchema: { type: 'object', properties: { x: { enum: [] } } } },
        ]),
    ).toThrow(/enum must NOT have fewer than 1 items/);
  });
});
