/**
 * pointerOffsets against an oracle: momoa's syntax tree gives every value's and key's offset, so
 * on random JSON, written compactly or pretty, the one-pass scan must agree with it everywhere.
 */
import { type AnyNode, parse } from '@humanwhocodes/momoa';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPointer } from '../../src/language/pointer.js';
import { pointerOffsets } from '../../src/language/text/pointer-offsets.js';

/** Every pointer in the tree with its value's and key's offsets, from momoa (iteratively). */
function oracle(text: string): Map<string, { value: number; key: number | undefined }> {
  const out = new Map<string, { value: number; key: number | undefined }>();
  const stack: { node: AnyNode; pointer: string; key: number | undefined }[] = [
    { node: parse(text, { mode: 'json' }).body, pointer: '', key: undefined },
  ];
  while (stack.length > 0) {
    const { node, pointer, key } = stack.pop()!;
    out.set(pointer, { value: node.loc.start.offset, key });
    if (node.type === 'Object') {
      // The last of duplicate keys wins, as in JSON.parse: push in order, later ones overwrite.
      for (const member of [...node.members].reverse()) {
        if (member.name.type !== 'String') continue;
        stack.push({
          node: member.value,
          pointer: joinPointer(pointer, member.name.value),
          key: member.name.loc.start.offset,
        });
      }
    } else if (node.type === 'Array') {
      node.elements.forEach((element, i) =>
        stack.push({ node: element.value, pointer: joinPointer(pointer, i), key: undefined }),
      );
    }
  }
  return out;
}

const keyChars = fc.constantFrom('a', 'b', '/', '~', '"', '\\', ' ', '†', '0', '1', '\n');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1.5e3, 'text', 'with "quotes" and \\ slashes', ''),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: keyChars, maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('pointerOffsets', () => {
  it('agrees with momoa on the value and key offsets of every pointer in random JSON', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(0, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const expected = oracle(text);
        const pointers = [...expected.keys()];
        const got = pointerOffsets(text, pointers);
        pointers.forEach((pointer, k) => {
          const want = expected.get(pointer)!;
          expect(got[k], pointer).toEqual({ value: want.value, key: want.key, found: true });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('gives a missing pointer its nearest ancestor, not found', () => {
    const text = '{"a": {"b": [1, 2]}, "c": 3}';
    const [deep, past, root] = pointerOffsets(text, ['/a/b/7/x', '/a/zz', '/nope']);
    expect(deep).toEqual({ value: text.indexOf('[1'), key: undefined, found: false });
    expect(past).toEqual({ value: text.indexOf('{"b"'), key: undefined, found: false });
    expect(root).toEqual({ value: 0, key: undefined, found: false });
  });

  it('takes the last of duplicate keys, as JSON.parse does', () => {
    const text = '{"k": 1, "k": [2]}';
    expect(pointerOffsets(text, ['/k'])[0]).toEqual({
      value: text.indexOf('[2]'),
      key: text.lastIndexOf('"k"'),
      found: true,
    });
  });

  it('scans a document nested 100,000 deep without recursion', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}7${']'.repeat(depth)}`;
    const pointer = '/0'.repeat(depth);
    expect(pointerOffsets(text, [pointer])[0]).toEqual({ value: depth, key: undefined, found: true });
  });

  it('finds many pointers in one pass over a big document', () => {
    const calls = Array.from({ length: 20_000 }, (_, i) => ({
      _tool: 't',
      n: i,
      deep: { list: [i, { k: i }] },
    }));
    const text = JSON.stringify(calls, null, 1);
    const pointers = calls.map((_, i) => `/${i}/deep/list/1/k`);
    const got = pointerOffsets(text, pointers);
    const check = [0, 9_999, 19_999];
    for (const i of check) {
      const at = got[i]!.value;
      expect(text.slice(at, at + String(i).length)).toBe(String(i));
    }
  });
});
