/**
 * Tool schemas are checked against their draft's meta-schema by instances the whole process
 * shares, while each registry compiles its own: the check must refuse exactly what it refused
 * when every registry checked for itself, for both drafts, and one registry's schemas must
 * never leak into another's.
 */
import { describe, expect, it } from 'vitest';
import { isToolDefinitionError, type ToolDefinitionError } from '../../src/errors.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';

function problems(tools: readonly Tool[]): readonly string[] {
  try {
    new ToolRegistry(tools);
  } catch (e) {
    if (isToolDefinitionError(e)) return (e as ToolDefinitionError).problems;
    throw e;
  }
  return [];
}

describe('schemas against their meta-schema', () => {
  it('refuses a draft-07 schema that breaks it, with ajv own words', () => {
    expect(problems([{ name: 'a', inputSchema: { type: 'strng' } }])).toEqual([
      expect.stringMatching(
        /^tool 'a': "inputSchema" .*schema is invalid: data\/type must be equal to one of the allowed values/,
      ),
    ]);
  });

  it('refuses a 2020-12 schema that breaks its own meta-schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      prefixItems: 3,
    };
    expect(problems([{ name: 'b', outputSchema: schema }])).toEqual([
      expect.stringMatching(/^tool 'b': "outputSchema" .*schema is invalid: data\/prefixItems must be array/),
    ]);
  });

  it('refuses a $schema no draft it knows names', () => {
    expect(
      problems([{ name: 'c', inputSchema: { $schema: 'http://example.com/mine', type: 'object' } }]),
    ).toEqual([
      expect.stringMatching(
        /^tool 'c': "inputSchema" .*no schema with key or ref "http:\/\/example.com\/mine"/,
      ),
    ]);
  });

  it('lets two registries hold schemas of the same $id, each its own', () => {
    const tool = (type: string): Tool => ({
      name: 't',
      inputSchema: {
        $id: 'https://example.com/same.json',
        type: 'object',
        properties: { x: { type } },
        required: ['x'],
      },
    });
    const numbers = new ToolRegistry([tool('number')]);
    const strings = new ToolRegistry([tool('string')]);
    expect(numbers.get('t')!.validateInput!({ x: 1 })).toBe(true);
    expect(strings.get('t')!.validateInput!({ x: 1 })).toBe(false);
    expect(strings.get('t')!.validateInput!({ x: 'one' })).toBe(true);
  });

  it('accepts every valid schema of either draft, as before', () => {
    expect(
      problems([
        {
          name: 'd7',
          inputSchema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            uniqueItems: true,
          },
        },
        {
          name: 'd2020',
          inputSchema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            prefixItems: [{ type: 'string' }],
          },
        },
        { name: 'plain', outputSchema: { enum: [1, 1, 2] } },
      ]),
    ).toEqual([]);
  });
});
