import { describe, expect, it } from 'vitest';
import { joinCommandLine, splitCommandLine } from '../../src/adapters/shell-words.js';

describe('splitCommandLine', () => {
  it.each([
    [
      'npx -y @modelcontextprotocol/server-filesystem /tmp/a',
      ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp/a'],
    ],
    ['  node   server.js  ', ['node', 'server.js']],
    [`node 'my dir/server.js' "a \\"quoted\\" word"`, ['node', 'my dir/server.js', 'a "quoted" word']],
    [`echo it\\'s a\\ b`, ['echo', "it's", 'a b']],
    [`x '' ""`, ['x', '', '']],
    [`x "$HOME" '*' | y`, ['x', '$HOME', '*', '|', 'y']],
    [`x "a\\nb" 'c\\d'`, ['x', 'a\\nb', 'c\\d']],
    ['x a\\\nb \\\ny', ['x', 'ab', 'y']],
    ['', []],
  ])('%j', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it('names the column of an unclosed quote or a trailing backslash', () => {
    expect(() => splitCommandLine(`node 'a`)).toThrow("unclosed ' at column 6");
    expect(() => splitCommandLine(`node "a`)).toThrow('unclosed " at column 6');
    expect(() => splitCommandLine('node a\\')).toThrow('a backslash at the end (column 7) escapes nothing');
  });

  it('joinCommandLine quotes what needs it, so splitting gives the words back', () => {
    const words = ['node', 'my dir/server.js', "it's", '', '$HOME', '--flag=1'];
    expect(joinCommandLine(words)).toBe(`node 'my dir/server.js' 'it'\\''s' '' '$HOME' --flag=1`);
    expect(splitCommandLine(joinCommandLine(words))).toEqual(words);
  });
});
