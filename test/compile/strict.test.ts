/** strict: true makes every warning an error, with its code unchanged: for CI. */
import { describe, expect, it } from 'vitest';
import { compile, PlanValidationError, run, type Tool } from '../../src/index.js';
import { doc } from './helpers.js';

/** A plan with two warnings: a missing † (W_MISSING_DAGGER) and an overwritten output (W_MULTIPLE_WRITERS). */
const warned = [
  { _tool: 'geocode', city: 'Paris', _outputPath: '†state.place' },
  { _tool: 'geocode', city: 'Lyon', _outputPath: '†state.place' },
  { _tool: 'getWeather', place: 'state.place' },
];

describe('compile({ strict: true })', () => {
  it('reports every warning as an error with the same code, noted (strict): ok is false, no plan', () => {
    const lenient = compile(doc(warned));
    expect(lenient.ok).toBe(true);
    const codes = lenient.diagnostics.map((d) => [d.severity, d.code]);
    expect(codes).toEqual([
      ['warning', 'W_MULTIPLE_WRITERS'],
      ['warning', 'W_MISSING_DAGGER'],
    ]);
    const strict = compile(doc(warned), { strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.plan).toBeUndefined();
    expect(strict.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['error', 'W_MULTIPLE_WRITERS'],
      ['error', 'W_MISSING_DAGGER'],
    ]);
    strict.diagnostics.forEach((d, k) => {
      const was = lenient.diagnostics[k]!;
      expect(d.message).toBe(`${was.message} (strict)`);
      expect({ ...d, severity: was.severity, message: was.message }).toEqual(was);
    });
  });

  it('covers the warnings of the text (a trailing comma) and the count past maxDiagnostics (W_LIMIT)', () => {
    const comma = compile('[{ "_tool": "a" },]', { strict: true });
    expect(comma.diagnostics.map((d) => [d.severity, d.code])).toEqual([['error', 'W_JSON_EXTENSION']]);
    expect(comma.ok).toBe(false);
    const capped = compile(doc(warned), { strict: true, limits: { maxDiagnostics: 0 } });
    expect(capped.ok).toBe(false);
    expect(capped.diagnostics.map((d) => [d.severity, d.code])).toEqual([['error', 'W_LIMIT']]);
  });

  it('changes nothing for a plan without warnings', () => {
    const clean = [{ _tool: 'geocode', city: 'Paris', _outputPath: '†state.place' }];
    expect(compile(doc(clean), { strict: true })).toMatchObject({ ok: true, diagnostics: [] });
  });

  it('is true or false', () => {
    expect(() => compile('[]', { strict: 'yes' as never })).toThrow(/Expected strict to be true or false/);
  });
});

describe('run(…, { strict: true })', () => {
  const tools: Tool[] = ['geocode', 'getWeather'].map((name) => ({ name, execute: () => name }));

  it('a plan it compiles with a warning throws PlanValidationError before any call runs', async () => {
    const ran: string[] = [];
    const counted = tools.map((t) => ({ ...t, execute: () => ran.push(t.name) }));
    await expect(run(warned, { tools: counted, strict: true })).rejects.toBeInstanceOf(PlanValidationError);
    expect(ran).toEqual([]);
    expect((await run(warned, { tools: counted })).status).toBe('succeeded');
  });

  it('so does a plan compiled elsewhere that carries warnings', async () => {
    const compiled = compile(warned).plan!;
    const error = await run(compiled, { tools, strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanValidationError);
    expect((error as PlanValidationError).diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['error', 'W_MULTIPLE_WRITERS'],
      ['error', 'W_MISSING_DAGGER'],
    ]);
  });

  it('a streamed call with a warning found as it arrives does not run; one found at the end is an error of the result', async () => {
    async function* calls() {
      yield { _id: 'place', _tool: 'geocode', city: 'Paris', _outputPath: '†state.place' };
      yield { _id: 'weather', _tool: 'getWeather', place: 'in †state.place' };
      yield { _id: 'clean', _tool: 'getWeather', place: '†state.place' };
      yield { _id: 'bare', _tool: 'getWeather', place: 'state.place' };
    }
    const result = await run(calls(), { tools, strict: true });
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['place', 'succeeded'],
      ['weather', 'failed'],
      ['clean', 'succeeded'],
      // A missing † is judged against the whole plan, at the end of the stream: the call ran.
      ['bare', 'succeeded'],
    ]);
    expect(result.calls[1]!.error).toMatchObject({ code: 'W_DAGGER_TEXT' });
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.call])).toEqual([
      ['error', 'W_DAGGER_TEXT', 'weather'],
      ['error', 'W_MISSING_DAGGER', 'bare'],
    ]);
  });

  it('is true or false', async () => {
    await expect(run([], { tools, strict: 1 as never })).rejects.toThrow(
      /Expected strict to be true or false/,
    );
  });
});
