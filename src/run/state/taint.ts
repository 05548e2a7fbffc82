/**
 * Why a value is missing, which decides the terminal state of a call that needs it:
 * `upstream_failed` when a call that writes it failed (or was itself upstream_failed) and nothing
 * wrote it since, `skipped` otherwise. Failed writes mark their paths; a later successful write
 * clears its path and what lies under it.
 */
import type { PathSegment } from '../../language/paths.js';
import { PathTrie, type TrieNode } from '../../compile/storage/index.js';

export class FailureTaint {
  readonly #trie = new PathTrie();
  #any = false;

  /** Marks `segments` as last written by a failed call. */
  mark(segments: readonly PathSegment[], call: number): void {
    this.#any = true;
    this.#trie.ensure(segments).lastWriter = call;
  }

  /** A successful write at `segments`: what lies there is a real value now. */
  clear(segments: readonly PathSegment[]): void {
    if (!this.#any) return;
    const node = this.#trie.walk(segments, () => {});
    if (!node) return;
    node.lastWriter = -1;
    node.children = null;
  }

  /** The failed call whose write is missing at, above or below `segments`, or -1. */
  culprit(segments: readonly PathSegment[]): number {
    if (!this.#any) return -1;
    let found = -1;
    const take = (node: TrieNode) => {
      if (found < 0 && node.lastWriter >= 0) found = node.lastWriter;
    };
    const node = this.#trie.walk(segments, take);
    if (node && found < 0) PathTrie.forEachDescendant(node, take);
    return found;
  }
}
