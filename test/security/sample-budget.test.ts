/**
 * The dry run samples an output schema only within the limits a real result is held to: a
 * schema's `minItems: 1e9` (an MCP server's `outputSchema`, say) made json-schema-faker build a
 * billion-element array (3.7 GB and still going). Now no sample is made, the calls' outputs are
 * unknown, and a W_LIMIT warning names the tool and the bound. Each case here would have taken
 * minutes or gigabytes before; the bound is checked before the faker runs.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Tool } from '../../src/index.js';
import { sampleBudget } from '../../src/simulate/sample-budget.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/language/limits.js';
import type { JsonSchema } from '../../src/tools/tool.js';

const plan = JSON.stringify([
  { _id: 'fetch', _tool: 'fetch', _outputPath: '†state.page' },
  { _id: 'again', _tool: 'fetch', _outputPath: '†state.other' },
]);

function dryRun(outputSchema: unknown, limits?: Parameters<typeof resolveLimits>[0]) {
  const tools: Tool[] = [{ name: 'fetch', outputSchema: outputSchema as JsonSchema }];
  return simulate(plan, { tools, ...(limits && { limits }) });
}

/** `minItems` arrays nested `levels` deep around an integer. */
function nested(levels: number, minItems: number): unknown {
  let schema: unknown = { type: 'integer' };
  for (let i = 0; i < levels; i++) schema = { type: 'array', minItems, items: schema };
  return schema;
}

describe('a dry run samples within the limits', () => {
  it('minItems 1e9 is not sampled: the output is unknown and one W_LIMIT names the tool and maxArrayIndex', () => {
    const simulation = dryRun({
      type: 'object',
      properties: { items: { type: 'array', minItems: 1e9, items: { type: 'integer' } } },
      required: ['items'],
    });
    expect(simulation.samples.fetch).toEqual({ source: 'unknown', value: null });
    const limits = simulation.diagnostics.filter((d) => d.code === 'W_LIMIT');
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ severity: 'warning', call: 'fetch', pointer: '/0/_tool' });
    expect(limits[0]!.message).toContain('tool "fetch"');
    expect(limits[0]!.message).toContain(
      'minItems 1000000000 at /properties/items is past limits.maxArrayIndex',
    );
  });

  it('the bound follows the run limits: minItems 50 samples by default, and not under maxArrayIndex=10', () => {
    const schema = { type: 'array', minItems: 50, items: { type: 'integer' } };
    expect((dryRun(schema).samples.fetch!.value as unknown[]).length).toBeGreaterThanOrEqual(50);
    const small = dryRun(schema, { maxArrayIndex: 10 });
    expect(small.samples.fetch!.source).toBe('unknown');
    expect(small.diagnostics.map((d) => d.code)).toContain('W_LIMIT');
  });

  it('nested products are bounded in total, not only per level: minItems 1000 of minItems 1000 of minItems 1000', () => {
    const simulation = dryRun(nested(3, 1000));
    expect(simulation.samples.fetch!.source).toBe('unknown');
    expect(simulation.diagnostics.find((d) => d.code === 'W_LIMIT')!.message).toMatch(
      /could be about \d+ characters of JSON; a dry run samples at most 4194304/,
    );
    // One level of 1000 is well within it, and sampled.
    expect(dryRun(nested(1, 1000)).samples.fetch!.source).toBe('schema');
  });

  it('minProperties past maxKeys and minLength past maxTextLength are not sampled', () => {
    expect(dryRun({ type: 'object', minProperties: 2_000_000 }).diagnostics[0]!.message).toContain(
      'past limits.maxKeys',
    );
    const long = dryRun({ type: 'string', minLength: 5000 }, { maxTextLength: 1000 });
    expect(long.diagnostics[0]!.message).toContain('minLength 5000 at / is past limits.maxTextLength (1000)');
  });

  it("a huge maxLength is lowered in the faker's copy: the string is sampled, short, and the tool's schema is unchanged", () => {
    const schema = { type: 'string', minLength: 3, maxLength: 1e9 };
    const simulation = dryRun(schema);
    expect(simulation.samples.fetch!.source).toBe('schema');
    const value = simulation.samples.fetch!.value as string;
    expect(value.length).toBeGreaterThanOrEqual(3);
    expect(value.length).toBeLessThanOrEqual(10_000);
    expect(schema.maxLength).toBe(1e9);
  });

  it('a schema that refers to itself without nesting is refused; a recursive tree is sampled (the faker stops at depth 8)', () => {
    const loop = { $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] } }, $ref: '#/$defs/a' };
    expect(sampleBudget(loop as JsonSchema, DEFAULT_LIMITS)).toMatchObject({ ok: false });
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['kids'],
        },
      },
      $ref: '#/$defs/node',
    };
    expect(sampleBudget(tree as JsonSchema, DEFAULT_LIMITS)).toMatchObject({ ok: true });
  });

  it('the bound is linear: 40 definitions each naming the one before twice are costed once each, not expanded 2^40 times', () => {
    const $defs: Record<string, unknown> = { d0: { type: 'integer' } };
    for (let i = 1; i <= 40; i++) {
      $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    }
    // Counted as if every branch were sampled (an upper bound): 2^40 integers, far past the total.
    const verdict = sampleBudget({ $defs, $ref: '#/$defs/d40' } as JsonSchema, DEFAULT_LIMITS);
    expect(verdict).toMatchObject({ ok: false });
    expect((verdict as { reason: string }).reason).toMatch(/characters of JSON/);
    // Ten levels are within it, and their bound is the same walk.
    const ten = { $defs, $ref: '#/$defs/d10' } as JsonSchema;
    expect(sampleBudget(ten, DEFAULT_LIMITS)).toMatchObject({ ok: true });
  });
});
