/**
 * What the model is shown of each call's result in the next turn of the plan loop, whether or
 * not the plan wrote it to the state: a call without `_outputPath` (a billing history read to
 * decide, not to keep) still did something the model must see to plan the next step.
 *
 * Tool output is untrusted and may be huge, so it is shown as an excerpt of its JSON: each result
 * (or error) at most {@link RESULT_SHOWN_CHARS} characters, and all of a turn's results together
 * at most {@link RESULTS_SHOWN_CHARS}; a cut ends with `… (N more characters)`. The excerpt is a
 * bounded walk (language/json-excerpt.ts): a deep, cyclic or 100 MB result costs no more than a
 * small one.
 */
import { groupedDigits, jsonExcerpt, omissionMarker } from '../../language/json-excerpt.js';
import type { CallReport } from '../../run/types.js';
import type { FailedCallRecord } from './solve-types.js';

/** Most characters of one call's result (or error) shown to the model: the start of its JSON. */
export const RESULT_SHOWN_CHARS = 2_000;

/** Most characters of all the results (and errors) shown in one turn's context. */
export const RESULTS_SHOWN_CHARS = 20_000;

/** What is left of a turn's allowance for results: each shown result spends from it. */
export class ResultAllowance {
  #left = RESULTS_SHOWN_CHARS;

  /**
   * The value's JSON on one line, cut at what this result may have; null when the allowance
   * is spent (the caller says so instead).
   */
  excerpt(value: unknown): string | null {
    if (this.#left <= 0) return null;
    const excerpt = jsonExcerpt(value, { maxLength: Math.min(RESULT_SHOWN_CHARS, this.#left) });
    this.#left -= excerpt.text.length;
    const cut = excerpt.omitted > 0 || excerpt.atLeast ? omissionMarker(excerpt) : '';
    return oneLine(excerpt.text) + cut;
  }
}

/**
 * The comment lines after a call's status line: `result: <json>` when it returned something
 * (also when it was reused, or when its error was written to the error path), and
 * `error: <json>` when it ended with an error.
 */
export function resultLines(report: CallReport, allowance: ResultAllowance): string[] {
  const lines: string[] = [];
  if (report.output !== undefined) lines.push(`result: ${shown(report.output, allowance)}`);
  if (report.error) lines.push(`error: ${shown(report.error, allowance)}`);
  return lines;
}

const NOT_SHOWN = `not shown: this turn's results passed ${groupedDigits(RESULTS_SHOWN_CHARS)} characters`;

function shown(value: unknown, allowance: ResultAllowance): string {
  return allowance.excerpt(value) ?? NOT_SHOWN;
}

/**
 * The records of the calls that did not succeed, as JSON the model can read: each error's
 * message cut at {@link RESULT_SHOWN_CHARS} (it stays a string), and the list cut once its text
 * passes {@link RESULTS_SHOWN_CHARS}, with how many more there were.
 */
export function failuresText(failures: readonly FailedCallRecord[]): string {
  const shownRecords: FailedCallRecord[] = [];
  let size = 0;
  for (const failure of failures) {
    const record = failure.error ? { ...failure, error: cutMessage(failure.error) } : failure;
    size += JSON.stringify(record).length;
    if (size > RESULTS_SHOWN_CHARS && shownRecords.length > 0) break;
    shownRecords.push(record);
  }
  const text = JSON.stringify(shownRecords, null, 2);
  const more = failures.length - shownRecords.length;
  return more > 0
    ? `${text}\n… and ${more} more (each call's error is in its comment in the plan above)`
    : text;
}

function cutMessage(error: NonNullable<FailedCallRecord['error']>): NonNullable<FailedCallRecord['error']> {
  const { message } = error;
  if (message.length <= RESULT_SHOWN_CHARS) return error;
  const marker = omissionMarker({ omitted: message.length - RESULT_SHOWN_CHARS, atLeast: false });
  return { ...error, message: `${message.slice(0, RESULT_SHOWN_CHARS)}${marker}` };
}

/**
 * JSON text is one line already (JSON.stringify escapes line feeds and returns inside strings),
 * except for U+2028 and U+2029, which it leaves as they are and which some readers take for line
 * breaks: escaped, a result cannot end its comment and write into the context.
 */
function oneLine(text: string): string {
  return text.replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
