/**
 * What json-schema-faker is given: patterns whose strings could be huge, and patternProperties
 * (which it matches with backtracking RegExp), are left out of a copy; other schemas pass as they are.
 */
import { describe, expect, it } from 'vitest';
import {
  fakerLengthBound,
  MAX_SAMPLED_PATTERN_LENGTH,
  schemaForFaker,
} from '../../src/simulate/faker-schema.js';

describe('fakerLengthBound', () => {
  it.each([
    ['abc', 3],
    ['^[a-z]{3}$', 5],
    ['a{2,}', 7],
    ['a{2,100}', 7],
    ['a*', 5],
    ['(ab)+', 10],
    ['(a|bcd)', 3],
    ['(a*)*', 25],
    ['\\d{4}-\\d{2}', 7],
    ['a?b', 2],
    ['x\\{2}', 4],
  ])('%s: at most %i', (pattern, bound) => {
    expect(fakerLengthBound(pattern)).toBe(bound);
  });

  it('multiplies nested stars', () => {
    expect(fakerLengthBound(`${'('.repeat(12)}a*${')*'.repeat(12)}`)).toBe(5 ** 13);
  });
});

describe('schemaForFaker', () => {
  it('returns an ordinary schema itself', () => {
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]{1,64}$' } } };
    expect(schemaForFaker(schema)).toBe(schema);
  });

  it('copies without huge patterns and patternProperties, leaving the original alone', () => {
    const huge = `${'('.repeat(8)}a*${')*'.repeat(8)}`;
    expect(fakerLengthBound(huge)).toBeGreaterThan(MAX_SAMPLED_PATTERN_LENGTH);
    const schema = {
      type: 'object',
      properties: {
        big: { type: 'string', pattern: huge, minLength: 2 },
        small: { type: 'string', pattern: '^x+$' },
        map: { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } },
      },
      default: { big: { pattern: huge } },
    };
    const before = JSON.stringify(schema);
    expect(schemaForFaker(schema)).toEqual({
      type: 'object',
      properties: {
        big: { type: 'string', minLength: 2 },
        small: { type: 'string', pattern: '^x+$' },
        map: { type: 'object' },
      },
      default: { big: { pattern: huge } },
    });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
