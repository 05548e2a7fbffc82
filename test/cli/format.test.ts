import { describe, expect, it } from 'vitest';
import {
  formatCliError,
  formatDiagnostic,
  formatSummary,
  oneLine,
  shouldUseColor,
} from '../../src/cli/output/format.js';
import type { Diagnostic } from '../../src/language/diagnostics.js';

const diagnostic: Diagnostic = {
  severity: 'error',
  code: 'E_UNRESOLVED',
  message: '†state.x is never set',
  pointer: '/0/a',
  line: 3,
  column: 12,
  call: '0',
  hint: 'did you mean †state.y?',
};

describe('formatDiagnostic', () => {
  it('writes file:line:col: severity CODE: message, and the hint indented on the next line', () => {
    expect(formatDiagnostic(diagnostic, { file: 'p.json' })).toBe(
      'p.json:3:12: error E_UNRESOLVED: †state.x is never set\n  hint: did you mean †state.y?\n',
    );
    const { hint: _, ...bare } = diagnostic;
    expect(formatDiagnostic({ ...bare, severity: 'warning', code: 'W_DAGGER_TEXT' })).toBe(
      '<input>:3:12: warning W_DAGGER_TEXT: †state.x is never set\n',
    );
  });

  it('keeps each diagnostic on its own line even when a message has line breaks', () => {
    expect(formatDiagnostic({ ...diagnostic, message: 'a\nb', hint: 'c\r\nd' }, { file: 'f' })).toBe(
      'f:3:12: error E_UNRESOLVED: a b\n  hint: c d\n',
    );
  });

  it('adds ANSI colors only when asked', () => {
    expect(formatDiagnostic(diagnostic, { color: true })).toContain('\u001b[31m');
    expect(formatDiagnostic(diagnostic, { color: false })).not.toContain('\u001b');
  });
});

describe('formatSummary', () => {
  it('summarizes a valid and an invalid plan', () => {
    expect(formatSummary({ calls: 12, edges: 14, errors: 0, warnings: 2 }, { file: 'plan.json' })).toBe(
      'plan.json: valid, 12 calls, 14 edges, 2 warnings\n',
    );
    expect(formatSummary({ calls: 1, edges: 1, errors: 0, warnings: 1 }, { file: 'a' })).toBe(
      'a: valid, 1 call, 1 edge, 1 warning\n',
    );
    expect(formatSummary({ calls: 3, edges: 0, errors: 1, warnings: 0 }, { file: 'a' })).toBe(
      'a: invalid, 1 error, 0 warnings\n',
    );
  });
});

describe('shouldUseColor', () => {
  it('needs a terminal and no NO_COLOR', () => {
    expect(shouldUseColor({ write: () => {}, isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ write: () => {} }, {})).toBe(false);
    expect(shouldUseColor({ write: () => {}, isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ write: () => {}, isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('formatCliError', () => {
  it('is one line', () => {
    expect(formatCliError('a\n  b')).toBe('plan: error: a b\n');
  });
});

describe('oneLine on untrusted text', () => {
  it('folds lines, and a 200,000-space run without a newline passes in one sweep (the old regex backtracked)', () => {
    expect(oneLine('  first line  \r\n\n   second\t\n third  ')).toBe('first line second third');
    const spaces = ' '.repeat(200_000);
    expect(oneLine(`a${spaces}b`)).toBe(`a${spaces}b`);
  });
});
