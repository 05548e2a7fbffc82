/** Terminal rendering: `file:line:col: error CODE: message` lines, hints, summaries, colors. */
import type { CompileResult } from '../../compile/compile.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { OutputStream } from '../io.js';

export interface FormatOptions {
  /**
   * The file name printed before each position.
   * @default '<input>'
   */
  readonly file?: string;
  /**
   * Wrap parts in ANSI colors.
   * @default false
   */
  readonly color?: boolean;
}

const ANSI = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;
export type Style = keyof typeof ANSI;

/** The text wrapped in the styles' ANSI codes, or the text as is when `color` is false. */
export function paint(text: string, color: boolean, ...styles: Style[]): string {
  if (!color) return text;
  return styles.reduce((out, style) => `\u001b[${ANSI[style][0]}m${out}\u001b[${ANSI[style][1]}m`, text);
}

/**
 * Colors only on a terminal, and never when NO_COLOR is set to a non-empty value
 * (https://no-color.org) or TERM is `dumb`.
 */
export function shouldUseColor(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** One diagnostic: its location line, then its hint indented on the next line. */
export function formatDiagnostic(d: Diagnostic, options: FormatOptions = {}): string {
  const color = options.color ?? false;
  const where = paint(`${options.file ?? '<input>'}:${d.line}:${d.column}:`, color, 'bold');
  const severity =
    d.severity === 'error' ? paint('error', color, 'red', 'bold') : paint('warning', color, 'yellow', 'bold');
  let out = `${where} ${severity} ${paint(d.code, color, 'bold')}: ${oneLine(d.message)}\n`;
  if (d.hint) out += `  ${paint(`hint: ${oneLine(d.hint)}`, color, 'cyan')}\n`;
  return out;
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions = {}): string {
  return diagnostics.map((d) => formatDiagnostic(d, options)).join('');
}

export interface SummaryCounts {
  readonly calls: number;
  readonly edges: number;
  readonly errors: number;
  readonly warnings: number;
}

/** `plan.json: valid, 12 calls, 14 edges, 2 warnings` or `plan.json: invalid, 3 errors, 1 warning`. */
export function formatSummary(counts: SummaryCounts, options: FormatOptions = {}): string {
  const color = options.color ?? false;
  const file = options.file ?? '<input>';
  const warnings = plural(counts.warnings, 'warning');
  if (counts.errors === 0) {
    return `${file}: ${paint('valid', color, 'bold')}, ${plural(counts.calls, 'call')}, ${plural(counts.edges, 'edge')}, ${warnings}\n`;
  }
  return `${file}: ${paint('invalid', color, 'red', 'bold')}, ${plural(counts.errors, 'error')}, ${warnings}\n`;
}

/** The single line for a problem with the CLI's own inputs. */
/**
 * Every diagnostic of a compile, then its summary line: what `validate` prints, and what
 * `graph` and `run` print for a plan that does not compile.
 */
export function formatCompileReport(result: CompileResult, options: FormatOptions = {}): string {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const counts = {
    calls: result.document?.calls.length ?? 0,
    edges: result.plan?.edgeCount ?? 0,
    errors,
    warnings: result.diagnostics.length - errors,
  };
  return formatDiagnostics(result.diagnostics, options) + formatSummary(counts, options);
}

export function formatCliError(message: string, options: Pick<FormatOptions, 'color'> = {}): string {
  return `plan: ${paint('error', options.color ?? false, 'red', 'bold')}: ${oneLine(message)}\n`;
}

export function oneLine(text: string): string {
  // Split, not a regex: /\s*\r?\n\s*/ backtracks over a long run of spaces (quadratic), and the
  // text may be a tool's or a model's error message.
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * The text on one line and at most `max` characters (the last one `…` when cut). Cut before it
 * is folded: a tool's error message or a plan's id may be megabytes long.
 */
export function clip(text: string, max: number): string {
  const line = oneLine(text.length > max * 4 ? text.slice(0, max * 4) : text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `12ms`, `1.24s`, `12.3s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
