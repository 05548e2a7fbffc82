/** Where a schema's patterns are: findSchemaPatterns, and SchemaCompiler's check before ajv. */
import { describe, expect, it } from 'vitest';
import { findSchemaPatterns } from '../../src/tools/schema-patterns.js';
import { SchemaCompiler, SchemaPatternError } from '../../src/tools/schema-validator.js';

describe('findSchemaPatterns', () => {
  it('finds pattern and patternProperties in subschemas, in document order, with escaped pointers', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b': { type: 'string', pattern: '^x' } },
      patternProperties: { '^y~': { pattern: '^z' } },
      items: [{ pattern: '0' }, { anyOf: [{ pattern: '1' }] }],
      additionalProperties: { not: { pattern: '2' } },
      $defs: { d: { propertyNames: { pattern: '3' } } },
      dependencies: { a: ['b'], c: { pattern: '4' } },
      if: { pattern: '5' },
      then: { contains: { pattern: '6' } },
    };
    expect(findSchemaPatterns(schema).map((p) => [p.pointer, p.pattern])).toEqual([
      ['/properties/a~1b/pattern', '^x'],
      ['/patternProperties/^y~0', '^y~'],
      ['/patternProperties/^y~0/pattern', '^z'],
      ['/items/0/pattern', '0'],
      ['/items/1/anyOf/0/pattern', '1'],
      ['/additionalProperties/not/pattern', '2'],
      ['/$defs/d/propertyNames/pattern', '3'],
      ['/dependencies/c/pattern', '4'],
      ['/if/pattern', '5'],
      ['/then/contains/pattern', '6'],
    ]);
  });

  it('leaves values alone: enum, const, default, examples are not schemas', () => {
    const schema = {
      enum: [{ pattern: 'a' }],
      const: { pattern: 'b' },
      default: { pattern: 'c' },
      examples: [{ pattern: 'd' }],
    };
    expect(findSchemaPatterns(schema)).toEqual([]);
  });

  it('follows local $refs to wherever they point, once', () => {
    const schema = {
      items: { $ref: '#/x-library/id' },
      other: { $ref: '#/x-library/id' },
      'x-library': { id: { pattern: '^id$' } },
    };
    expect(findSchemaPatterns(schema)).toEqual([
      { pointer: '/x-library/id/pattern', pattern: '^id$', keyword: 'pattern' },
    ]);
  });

  it('ends on a cyclic schema built in code', () => {
    const node: Record<string, unknown> = { pattern: 'a' };
    node.items = node;
    node.properties = { self: node };
    expect(findSchemaPatterns(node)).toHaveLength(1);
  });

  it('walks a schema nested 100,000 deep without recursion', () => {
    let schema: Record<string, unknown> = { pattern: 'deep' };
    for (let i = 0; i < 100_000; i++) schema = { items: schema };
    expect(findSchemaPatterns(schema)).toHaveLength(1);
  });
});

describe('SchemaCompiler', () => {
  it('lists every pattern the engine cannot take, before ajv sees the schema', () => {
    const compiler = new SchemaCompiler();
    let thrown: unknown;
    try {
      compiler.compile({
        properties: { a: { pattern: '(?=a)' }, b: { pattern: '^ok$' } },
        patternProperties: { '\\1': {} },
      });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SchemaPatternError);
    expect((thrown as SchemaPatternError).patterns.map((p) => p.pointer)).toEqual([
      '/properties/a/pattern',
      '/patternProperties/\\1',
    ]);
    expect((thrown as Error).message).toMatch(
      /^pattern at \/properties\/a\/pattern: the pattern "\(\?=a\)" uses a lookahead/,
    );
  });

  it('matches patterns with JavaScript meaning: \\s is Unicode white space, . is not a line end', () => {
    const validate = new SchemaCompiler().compile({ type: 'string', pattern: '^\\s.$' });
    expect(validate('\u00a0x')).toBe(true);
    expect(validate(' \n')).toBe(false);
    expect(validate(' 😀')).toBe(true);
  });
});
