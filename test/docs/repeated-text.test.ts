/**
 * No page of README.md and docs/ says a sentence twice: an edit that leaves a sentence (or the
 * tail of one, as a stray fragment) behind beside its rewrite is caught. Prose only: code blocks,
 * tables and HTML comments are left out; sentences of at least 40 characters.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { pages } from './shell-blocks.js';

function sentences(text: string): string[] {
  const prose: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    else if (!inFence && !line.startsWith('|') && !line.startsWith('<!--')) prose.push(line);
  }
  return prose
    .join('\n')
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s+/g, ' ').split(/(?<=[.!?:;])\s+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 40);
}

/** Each sentence said again on the page, whole or as the end of another sentence. */
export function repeated(text: string): string[] {
  const all = sentences(text);
  const found: string[] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = 0; j < all.length; j++)
      if (i !== j && (all[j] === all[i] ? i < j : all[j]!.endsWith(all[i]!))) found.push(all[i]!);
  return found;
}

describe('README.md and docs/ say each sentence once', () => {
  it('finds a stray fragment that repeats the end of a sentence', () => {
    const page =
      'Each adapter is async and loads its SDK only when called, so importing the entry point costs nothing.\n\n' +
      'is async and loads its SDK only when called, so importing the entry point costs nothing.\n';
    expect(repeated(page)).toEqual([
      'is async and loads its SDK only when called, so importing the entry point costs nothing.',
    ]);
  });

  for (const page of pages(ROOT))
    it(page, () => expect(repeated(readFileSync(join(ROOT, page), 'utf8'))).toEqual([]));
});
