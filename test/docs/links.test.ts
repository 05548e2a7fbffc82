/**
 * README.md and docs/*.md stand alone: every relative link resolves to a file or folder of this
 * repository (and a `#fragment` to a heading of the page it names), and no page refers to
 * documents a clone of the package does not have.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INTERNAL_REFS } from './internal-refs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...(existsSync(join(ROOT, 'CHANGELOG.md')) ? ['CHANGELOG.md'] : []),
];

/** The page without its fenced code blocks: links and headings there are not markdown. */
function prose(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push(line);
  }
  return out.join('\n');
}

/** Link targets of `[text](target)`, inline code spans left out. */
function linkTargets(text: string): string[] {
  const withoutCode = prose(text).replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for each heading of a page: lower case, punctuation dropped, spaces to '-'. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const plain = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

describe('README.md and docs/', () => {
  it('has the pages it is made of', () => {
    expect(PAGES).toContain('docs/plan-language.md');
    expect(PAGES.length).toBeGreaterThan(10);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link resolves inside the repository`, () => {
      const text = read(page);
      const problems: string[] = [];
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [path, fragment] = target.split('#', 2) as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path));
        const inside = relative(ROOT, file);
        if (inside.startsWith('..') || inside.startsWith(sep)) {
          problems.push(`${target}: outside the repository`);
          continue;
        }
        if (!existsSync(file)) {
          problems.push(`${target}: no such file`);
          continue;
        }
        if (fragment !== undefined && statSync(file).isFile() && file.endsWith('.md')) {
          if (!anchors(readFileSync(file, 'utf8')).has(fragment))
            problems.push(`${target}: no heading with the anchor #${fragment}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it(`${page}: refers to nothing outside the package`, () => {
      const text = read(page);
      const found = INTERNAL_REFS.filter(([pattern]) => pattern.test(text)).map(([, name]) => name);
      expect(found).toEqual([]);
    });
  }

  it('README.md links every page of docs/', () => {
    const linked = new Set(linkTargets(read('README.md')).map((target) => target.split('#')[0]));
    const pages = PAGES.filter((page) => page.startsWith('docs/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('README.md stays under 16 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(16 * 1024);
  });
});
