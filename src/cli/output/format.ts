/** Terminal rendering: `file:line:col: error CODE: message` lines, hints, summaries, colors. */
import type { CompileResult } from '../../compile/compile.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { oneLine, paint } from '../terminal-text.js';

// Kept here too: the commands and views import everything they write with from this folder.
export { formatCliError, oneLine, paint, shouldUseColor, type Style } from '../terminal-text.js';

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
