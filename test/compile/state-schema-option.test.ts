/** compile's stateSchema option: the caller's schema for the state, instead of the document's. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { codes, doc, only } from './helpers.js';

const schema = { type: 'object', properties: { language: { type: 'string' } }, additionalProperties: false };

describe('compile({stateSchema})', () => {
  it('an output path the schema has no place for is E_STATE_SCHEMA at the path', () => {
    const text = doc({ calls: [{ _tool: 'detect', _outputPath: '†state.lang' }], output: null });
    const d = only(compile(text, { stateSchema: schema }).diagnostics, 'E_STATE_SCHEMA');
    expect(d.pointer).toBe('/calls/0/_outputPath');
    expect(compile(text).ok).toBe(true);
  });

  it('a read of a place the schema declares is not unresolved', () => {
    const plan = [{ _tool: 'translate', language: '†state.language' }];
    expect(codes(compile(plan).diagnostics)).toContain('E_UNRESOLVED');
    expect(compile(plan, { stateSchema: schema }).ok).toBe(true);
  });

  it("is used instead of the document's", () => {
    const context = [
      { type: 'state', schema: { type: 'object', properties: { other: {} }, additionalProperties: false } },
      { type: 'plan', plan: [{ _tool: 'detect', _outputPath: '†state.language' }] },
    ];
    expect(codes(compile(context).diagnostics)).toEqual(['E_STATE_SCHEMA']);
    expect(compile(context, { stateSchema: schema }).ok).toBe(true);
  });

  it('is bounded by the limits (E_LIMIT) and its patterns checked (E_STATE_SCHEMA)', () => {
    const deep = JSON.parse('{"properties": {"a": '.repeat(10) + '{}' + '}}'.repeat(10)) as Record<
      string,
      unknown
    >;
    expect(codes(compile([], { stateSchema: deep, limits: { maxDepth: 5 } }).diagnostics)).toEqual([
      'E_LIMIT',
    ]);
    const lookbehind = { patternProperties: { '(?<=a)b': {} } };
    expect(codes(compile([], { stateSchema: lookbehind }).diagnostics)).toEqual(['E_STATE_SCHEMA']);
  });

  it('must be a JSON Schema object', () => {
    expect(() => compile([], { stateSchema: [] as never })).toThrow(
      /Expected stateSchema to be a JSON Schema object, got/,
    );
  });
});
