/**
 * One grammar: every plan text fixture fed to the incremental reader whole, one character at a
 * time and in seeded random chunks gives parsePlan's diagnostics, the whole document's calls
 * (each from its own text), and for each call the whole parse's diagnostics under it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, PlanTextReader, type StreamedCall } from '../../../src/index.js';
import { EXAMPLES, FIXTURES, INVALID } from '../../fixtures/fixtures.js';
import { DIVERGING_DOCUMENTS, MADE_UP_DOCUMENTS } from './documents.js';

/** Every file of a folder tree, as paths. */
function files(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) stack.push(path);
      else out.push(path);
    }
  }
  return out.sort();
}

const PLAN_TEXTS: { name: string; text: string }[] = [
  ...readdirSync(INVALID)
    .filter((f) => f.endsWith('.json') && !/\.(tools|input|state)\.json$/.test(f))
    .map((f) => join(INVALID, f)),
  ...readdirSync(EXAMPLES).map((dir) => join(EXAMPLES, dir, 'plan.json')),
  ...readdirSync(join(FIXTURES, 'requests')).map((f) => join(FIXTURES, 'requests', f)),
  ...files(join(FIXTURES, '..', 'test', 'fixtures', 'eval')).filter((f) => f.endsWith('.json')),
]
  .map((path) => ({ name: relative(join(FIXTURES, '..'), path), text: readFileSync(path, 'utf8') }))
  .concat(MADE_UP_DOCUMENTS);

/** A seeded generator (mulberry32): the same chunks on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chunked(text: string, how: 'whole' | 'chars' | number): string[] {
  if (how === 'whole') return [text];
  if (how === 'chars') return [...text].flatMap((c) => (c.length === 2 ? [c[0]!, c[1]!] : [c]));
  const random = seeded(how);
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = 1 + Math.floor(random() * 40);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

function feed(text: string, how: 'whole' | 'chars' | number) {
  const reader = new PlanTextReader({ source: 'plan.json' });
  const streamed: StreamedCall[] = [];
  for (const chunk of chunked(text, how)) streamed.push(...reader.push(chunk));
  const ended = reader.end();
  return { streamed, ended, all: [...streamed, ...ended.calls] };
}

function isUnder(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}

describe('the incremental reader reads every fixture as parsePlan does', () => {
  it('has fixtures of every kind to read', () => {
    expect(PLAN_TEXTS.length).toBeGreaterThan(50);
  });

  for (const { name, text } of PLAN_TEXTS) {
    it(name, () => {
      const whole = parsePlan(text, { source: 'plan.json' });
      for (const how of ['whole', 'chars', 7, 31] as const) {
        const { ended, all } = feed(text, how);
        // (a) the authoritative diagnostics are parsePlan's.
        expect(ended.parsed.diagnostics, `${how}`).toEqual(whole.diagnostics);
        expect(ended.text).toBe(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        expect(ended.consistent).toBe(whole.document !== null || all.length === 0);
        if (!whole.document) continue;
        // (b) the calls, in order, are the whole document's.
        expect(
          all.map((c) => c.value),
          `${how}`,
        ).toEqual(whole.document.calls);
        expect(all.map((c) => c.index)).toEqual(whole.document.calls.map((_, i) => i));
        if (whole.diagnostics.some((d) => d.code === 'E_JSON')) continue;
        for (const call of all) {
          // (c) a call's own diagnostics are the whole parse's under its pointer.
          expect(call.pointer).toBe(`${whole.document.callsPointer}/${call.index}`);
          expect(
            call.diagnostics.filter((d) => isUnder(d.pointer, call.pointer)),
            `${how} ${call.pointer}`,
          ).toEqual(whole.diagnostics.filter((d) => isUnder(d.pointer, call.pointer)));
          // The rest (a comment inside it: pointer '') are the whole parse's too.
          for (const d of call.diagnostics) expect(whole.diagnostics).toContainEqual(d);
          // Its offsets hold its text.
          const body = ended.text.slice(call.start, call.end);
          expect(body.startsWith('{') || body === JSON.stringify(call.value)).toBe(true);
        }
      }
    });
  }

  for (const { name, text } of DIVERGING_DOCUMENTS) {
    it(`${name}: the calls handed out early are not the document's, and end() says so`, () => {
      const whole = parsePlan(text, { source: 'plan.json' });
      for (const how of ['whole', 'chars', 7] as const) {
        const { streamed, ended } = feed(text, how);
        expect(ended.parsed.diagnostics).toEqual(whole.diagnostics);
        expect(streamed.length).toBeGreaterThan(0);
        expect(ended.consistent).toBe(false);
        expect(ended.calls).toEqual([]);
        expect(whole.document).not.toBeNull();
      }
    });
  }
});
