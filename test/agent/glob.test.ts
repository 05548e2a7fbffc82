import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/agent/index.js';

describe('compileGlob: * and ? on tool names', () => {
  const cases: [string, string, boolean][] = [
    ['read_file', 'read_file', true],
    ['read_file', 'read_files', false],
    ['read_*', 'read_', true],
    ['read_*', 'read_file', true],
    ['read_*', 'xread_file', false],
    ['*', '', true],
    ['*', 'anything/with/slashes', true],
    ['mcp__github__*', 'mcp__github__create_issue', true],
    ['mcp__github__*', 'mcp__gitlab__create_issue', false],
    ['mcp__*__read', 'mcp__fs__read', true],
    ['mcp__*__read', 'mcp__fs__write', false],
    ['tool_?', 'tool_a', true],
    ['tool_?', 'tool_', false],
    ['tool_?', 'tool_ab', false],
    ['a.b', 'axb', false],
    ['a.b', 'a.b', true],
    ['x+(y)[z]{1}^$|\\', 'x+(y)[z]{1}^$|\\', true],
    ['é?', 'éü', true],
    ['*_file', 'read\nfile', false],
    ['*_file', 'read\n_file', true],
  ];
  for (const [pattern, name, expected] of cases) {
    it(`${JSON.stringify(pattern)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(name)}`, () => {
      expect(compileGlob(pattern).matches(name)).toBe(expected);
    });
  }
});
