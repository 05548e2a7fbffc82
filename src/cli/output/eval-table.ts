/**
 * `plan eval`'s table: one row per gold sample and an overall row, then why each lost sample
 * lost (its first diagnostic or error) and the predicted ids that are not gold ids. Sample ids
 * come from folder names and errors from files anyone wrote: control characters are shown as
 * `\u00XX` escapes, never written to the terminal.
 */
import type { EvalResult, SampleScore } from '../../import/index.js';
import { clip } from './format.js';

const HEADER = ['sample', 'tool F1', 'arg F1', 'partial', 'exact', 'compiles', 'win', 'reason'];

/** The table and its notes, ending with a newline. */
export function formatEvalTable(result: EvalResult): string {
  const rows = result.samples.map((s) => [
    printable(clip(s.id, 40)),
    fixed(s.toolF1.f1),
    fixed(s.argumentF1.f1),
    fixed(s.partialMatch),
    yesNo(s.exactMatch),
    yesNo(s.compiles),
    yesNo(s.win),
    s.reason ?? '',
  ]);
  const o = result.overall;
  rows.push([
    `overall (${o.samples})`,
    fixed(o.toolF1),
    fixed(o.argumentF1),
    fixed(o.partialMatch),
    fixed(o.exactMatch),
    fixed(o.compileRate),
    `${fixed(o.winRate)} (${o.wins}/${o.samples})`,
    o.missing > 0 ? `${o.missing} missing` : '',
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [line(HEADER), line(widths.map((w) => '-'.repeat(w)))];
  rows.forEach((row, i) => {
    if (i === rows.length - 1) out.push(line(widths.map((w) => '-'.repeat(w))));
    out.push(line(row));
  });
  const notes = result.samples.map(noteOf).filter((n): n is string => n !== undefined);
  if (notes.length > 0) out.push('', ...notes);
  if (result.extraPredictedCount > 0) {
    const listed = result.extraPredicted.map((id) => printable(clip(id, 40))).join(', ');
    const more = result.extraPredictedCount - result.extraPredicted.length;
    out.push(
      '',
      `not in gold (${result.extraPredictedCount}): ${listed}${more > 0 ? `, and ${more} more` : ''}`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** Why a sample lost, in one line: the first diagnostic of a plan that did not compile, or the error. */
function noteOf(score: SampleScore): string | undefined {
  const first = score.diagnostics.find((d) => d.severity === 'error');
  const why =
    score.reason === 'not_compiled' && first
      ? `${first.code} at ${first.line}:${first.column}: ${first.message}`
      : score.error;
  if (why === undefined) return undefined;
  return printable(`${clip(score.id, 40)}: ${clip(why, 160)}`);
}

function fixed(n: number): string {
  return n.toFixed(3);
}

function yesNo(b: boolean): string {
  return b ? 'yes' : 'no';
}

/** Control characters (C0, DEL, C1) as `\u00XX`: a folder name must not drive the terminal. */
export function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
