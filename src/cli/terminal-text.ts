/**
 * The few text helpers `plan` needs before any command runs: ANSI colors and when to use them,
 * one-line messages, and the line of a usage error. Kept apart from output/ (which re-exports
 * them) so that `plan --help` and a mistyped flag load nothing else.
 */
import type { OutputStream } from './io.js';

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

/** The single line for a problem with the CLI's own inputs. */
export function formatCliError(message: string, options: { readonly color?: boolean } = {}): string {
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
