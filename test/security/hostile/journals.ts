/**
 * Hostile journals: a journal the executor wrote, edited as a tampering hand or a broken disk
 * would. Each variant says whether a resume must refuse it (exit 2, one line) or may use it.
 */
import { wholeRecord } from '../../run/journal-file.js';

export interface JournalCase {
  readonly name: string;
  /** The journal file's new content. */
  readonly content: string | Buffer;
  readonly outcome: 'refused' | 'resumed';
}

type Record = { [key: string]: unknown };

/** The line as the whole record it stands for (a compact line of a version 4 journal expanded). */
const whole = (line: string): Record => wholeRecord(JSON.parse(line) as Record);

/** Variants of `original` (the lines of a journal of a plan whose calls all succeeded). */
export function hostileJournals(original: string): JournalCase[] {
  const lines = original.split('\n').filter((line) => line !== '');
  // Edited lines are written back whole; the others stay as written (compact in version 4).
  const records = lines.map(whole);
  const ends = records.map((r, i) => [r, i] as const).filter(([r]) => r.type === 'call:end');
  const firstEnd = ends[0]![1];
  const edit = (index: number, change: (r: Record) => Record): string =>
    lines.map((line, i) => (i === index ? JSON.stringify(change({ ...records[i]! })) : line)).join('\n') +
    '\n';
  /** The first end's line as written, edited as text: what a hand editing a compact line does. */
  const compactEdit = (change: (r: Record) => Record): string =>
    edit(firstEnd, () => change(JSON.parse(lines[firstEnd]!) as Record));
  const withLine = (index: number, text: string): string =>
    [...lines.slice(0, index), text, ...lines.slice(index)].join('\n') + '\n';
  let deep = '1';
  for (let i = 0; i < 100_000; i++) deep = `[${deep}]`;
  const cases: JournalCase[] = [
    { name: 'unchanged', content: original, outcome: 'resumed' },
    { name: 'a torn last line', content: `${original}{"type":"call:end","call":"`, outcome: 'resumed' },
    { name: 'a blank line in the middle', content: withLine(2, ''), outcome: 'resumed' },
    { name: 'empty', content: '', outcome: 'resumed' },
    { name: 'garbage in the middle', content: withLine(2, 'garbage'), outcome: 'refused' },
    { name: 'a JSON array line', content: withLine(2, '[1,2,3]'), outcome: 'refused' },
    {
      name: 'a record nested 100k deep',
      content: withLine(2, `{"type":"call:ready","x":${deep}}`),
      outcome: 'refused',
    },
    {
      name: 'invalid UTF-8',
      content: Buffer.concat([Buffer.from(withLine(2, '')), Buffer.from([0xff, 0xfe, 0x0a])]),
      outcome: 'refused',
    },
    { name: 'NUL bytes in a line', content: withLine(2, '{"type":"run:end\u0000"}'), outcome: 'refused' },
    { name: 'no header', content: lines.slice(1).join('\n') + '\n', outcome: 'refused' },
    {
      name: 'a header for another plan',
      content: edit(0, (r) => ({ ...r, digests: { ...(r.digests as Record), plan: 'f'.repeat(64) } })),
      outcome: 'refused',
    },
    {
      name: 'a header of another version',
      content: edit(0, (r) => ({ ...r, version: 99 })),
      outcome: 'refused',
    },
    {
      name: 'a header with a __proto__ key',
      content: edit(
        0,
        (r) => JSON.parse(JSON.stringify(r).replace('{', '{"__proto__":{"polluted":true},')) as Record,
      ),
      outcome: 'refused',
    },
    {
      name: 'a call:end for a call the plan does not have',
      content: edit(firstEnd, (r) => ({ ...r, call: 'ghost' })),
      outcome: 'refused',
    },
    {
      name: 'a succeeded call:end without its output',
      content: edit(firstEnd, (r) => {
        const { output: _o, ...rest } = r;
        return rest;
      }),
      outcome: 'refused',
    },
    {
      name: 'a branch out of range',
      content: edit(firstEnd, (r) => ({ ...r, branch: 7 })),
      outcome: 'refused',
    },
    {
      name: 'handled on a succeeded call',
      content: edit(firstEnd, (r) => ({ ...r, handled: true })),
      outcome: 'refused',
    },
    {
      name: 'a status that is not one',
      content: edit(firstEnd, (r) => ({ ...r, status: 'pwned' })),
      outcome: 'refused',
    },
    {
      name: 'attempts as a string',
      content: edit(firstEnd, (r) => ({ ...r, attempts: '1' })),
      outcome: 'refused',
    },
    {
      name: 'an unknown field',
      content: edit(firstEnd, (r) => ({ ...r, sneaky: true })),
      outcome: 'refused',
    },
    {
      name: 'a tool that is not the call’s',
      content: edit(firstEnd, (r) => ({ ...r, tool: 'other' })),
      outcome: 'refused',
    },
    {
      name: 'an output the output schema rejects',
      content: edit(firstEnd, (r) => ({ ...r, output: { not: 'a user' } })),
      outcome: 'refused',
    },
    {
      name: 'an unknown event type',
      content: withLine(2, '{"type":"call:explode","at":"2025-01-01T00:00:00.000Z"}'),
      outcome: 'refused',
    },
    {
      name: 'a compact call:end naming its call twice',
      content: compactEdit((r) => ({ ...r, call: r.end })),
      outcome: 'refused',
    },
    {
      name: 'a compact line that is both a start and an end',
      content: compactEdit((r) => ({ start: r.end, ...r })),
      outcome: 'refused',
    },
    {
      name: 'a compact call:end whose id is not a string',
      content: compactEdit((r) => ({ ...r, end: 7 })),
      outcome: 'refused',
    },
    {
      name: 'a compact call:end with a __proto__ key',
      content: compactEdit(
        (r) => JSON.parse(JSON.stringify(r).replace('{', '{"__proto__":{"status":"failed"},')) as Record,
      ),
      outcome: 'refused',
    },
    {
      name: 'a compact call:end with a default written out',
      content: compactEdit((r) => ({ ...r, status: 'succeeded', attempts: 1 })),
      outcome: 'resumed',
    },
    {
      name: 'a line longer than maxTextLength',
      content: withLine(2, `{"type":"call:ready","pad":"${'x'.repeat(2_000_000)}"}`),
      outcome: 'refused',
    },
  ];
  return cases;
}
