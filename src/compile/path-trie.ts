/**
 * A trie over path segments. Overlap (one path a prefix of the other) becomes "an ancestor,
 * the node itself, or a descendant", so finding the overlapping writers of a path costs its
 * depth plus what lies under it, never a comparison with every other path.
 */
import type { PathSegment } from '../language/paths.js';

export class TrieNode<T> {
  children: Map<string, TrieNode<T>> | null = null;
  constructor(public value: T) {}

  child(segment: PathSegment): TrieNode<T> | undefined {
    return this.children?.get(String(segment));
  }
}

export class PathTrie<T> {
  readonly root: TrieNode<T>;
  constructor(private readonly make: () => T) {
    this.root = new TrieNode(make());
  }

  /** The node at `segments`, created with its ancestors when missing. */
  ensure(segments: readonly PathSegment[]): TrieNode<T> {
    let node = this.root;
    for (const segment of segments) {
      const key = String(segment);
      node.children ??= new Map();
      let next = node.children.get(key);
      if (!next) {
        next = new TrieNode(this.make());
        node.children.set(key, next);
      }
      node = next;
    }
    return node;
  }

  /**
   * Visits the root-to-`segments` chain that exists: ancestors first, then the node itself.
   * Returns the node at `segments`, or undefined when the chain stops short.
   */
  walk(segments: readonly PathSegment[], visit: (node: TrieNode<T>) => void): TrieNode<T> | undefined {
    let node: TrieNode<T> | undefined = this.root;
    visit(node);
    for (const segment of segments) {
      node = node.child(segment);
      if (!node) return undefined;
      visit(node);
    }
    return node;
  }

  /** Visits every node strictly below `node` (iteratively: paths can be deep). */
  static forEachDescendant<T>(node: TrieNode<T>, visit: (node: TrieNode<T>) => void): void {
    if (!node.children) return;
    const stack: TrieNode<T>[] = [...node.children.values()];
    while (stack.length > 0) {
      const next = stack.pop()!;
      visit(next);
      if (next.children) for (const child of next.children.values()) stack.push(child);
    }
  }
}
