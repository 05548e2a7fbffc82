/**
 * The lines of a data file (or of one JSONL row's plan), read one at a time and plan by plan.
 * Nothing splits the whole text into an array: a 64 MiB file of empty lines costs one line at a
 * time, not tens of millions of strings held at once.
 */
import type { PlanLine } from './plan-lines.js';

export interface LineCursorOptions {
  /** Whether a line `###` ends a plan (the prompt form). */
  readonly separators: boolean;
  /** The data-file line of the cursor's n-th line (1-based). */
  readonly lineOf: (n: number) => number;
  /** How messages name the n-th line. */
  readonly nameOf: (n: number) => string;
}

export class LineCursor {
  private at = 0;
  private number = 0;
  /** A line read ahead by `nextPlan`, handed out first by `lines`. */
  private pending: PlanLine | undefined;
  /** Whether the current plan's separator (or the end) is still ahead. */
  private inPlan = false;

  constructor(
    private readonly text: string,
    private readonly options: LineCursorOptions,
  ) {}

  /**
   * Moves to the next plan's first non-blank line, past separators and blank lines.
   *
   * @returns That line, or undefined at the end of the text.
   */
  nextPlan(): PlanLine | undefined {
    this.pending = undefined;
    if (this.inPlan) this.skipPlan();
    for (;;) {
      const line = this.read();
      if (line === undefined) return undefined;
      if (this.isSeparator(line.text) || line.text.trim() === '') continue;
      this.pending = line;
      this.inPlan = true;
      return line;
    }
  }

  /** The next non-blank line, for a file of one row per line (JSONL). */
  nextLine(): PlanLine | undefined {
    for (;;) {
      const line = this.read();
      if (line === undefined || line.text.trim() !== '') return line;
    }
  }

  /** The current plan's lines, from the one `nextPlan` found up to the separator or the end. */
  *lines(): Generator<PlanLine> {
    if (this.pending) {
      const first = this.pending;
      this.pending = undefined;
      yield first;
    }
    while (this.inPlan) {
      const line = this.read();
      if (line === undefined || this.isSeparator(line.text)) this.inPlan = false;
      else yield line;
    }
  }

  /** Skips what is left of the current plan. */
  skipPlan(): void {
    this.pending = undefined;
    while (this.inPlan) {
      const line = this.read();
      if (line === undefined || this.isSeparator(line.text)) this.inPlan = false;
    }
  }

  private isSeparator(text: string): boolean {
    return this.options.separators && text.trim() === '###';
  }

  private read(): PlanLine | undefined {
    if (this.at > this.text.length) return undefined;
    let end = this.text.indexOf('\n', this.at);
    if (end === -1) end = this.text.length;
    const text = this.text.slice(this.at, end > this.at && this.text[end - 1] === '\r' ? end - 1 : end);
    this.at = end + 1;
    this.number += 1;
    return { text, line: this.options.lineOf(this.number), name: this.options.nameOf(this.number) };
  }
}
