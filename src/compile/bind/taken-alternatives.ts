/**
 * The lookups the branch guards make for every read, in time that does not grow with the size
 * of what they search: which `||` alternative of a writer a read path falls on, and which of a
 * call's reads is the read of a reference. A scan of a few entries stays a scan (the common
 * plan allocates nothing); past that, an index is built once per writer or per call, so a
 * writer of 16k alternatives each read by one call, or one call of 160k references, costs time
 * in proportion to its size rather than to its square.
 */
import { type Path, segmentsOverlap } from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { OutputPath, ReadBinding } from '../types.js';

/** Up to this many entries, a scan: cheaper than any index, and allocates nothing. */
const SCAN_UP_TO = 8;

/** A node of an alternatives trie: one per distinct prefix of the alternatives' paths. */
interface AlternativeNode {
  children: Map<string, AlternativeNode> | null;
  /** How many alternatives end exactly here, and the first of them. */
  ending: number;
  firstEnding: number;
  /** How many alternatives end here or below, and the first of them. */
  below: number;
  firstBelow: number;
}

/** The alternatives of one output, by root and then segment by segment. */
type AlternativeTrie = Map<string, AlternativeNode>;

/** Found when no alternative, or more than one, overlaps a path. */
const NONE = -1;

/** Which `||` alternative a read path falls on, for every writer of a plan (indexed once each). */
export class TakenAlternatives {
  readonly #tries = new Map<number, AlternativeTrie>();

  /**
   * The index of the one alternative of `output` (call `writer`'s `||` output path) that
   * overlaps `path` (one is a prefix of the other), or -1 when none or several do.
   */
  of(writer: number, output: OutputPath, path: Path): number {
    const paths = output.paths;
    if (paths.length <= SCAN_UP_TO) return scanAlternatives(paths, path);
    let trie = this.#tries.get(writer);
    if (trie === undefined) {
      trie = buildTrie(paths);
      this.#tries.set(writer, trie);
    }
    return lookUp(trie, path);
  }
}

function scanAlternatives(paths: readonly Path[], path: Path): number {
  let taken = NONE;
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k]!;
    if (p.root !== path.root || !segmentsOverlap(p.segments, path.segments)) continue;
    if (taken !== NONE) return NONE;
    taken = k;
  }
  return taken;
}

function newNode(): AlternativeNode {
  return { children: null, ending: 0, firstEnding: NONE, below: 0, firstBelow: NONE };
}

function buildTrie(paths: readonly Path[]): AlternativeTrie {
  const trie: AlternativeTrie = new Map();
  for (let k = 0; k < paths.length; k++) {
    const { root, segments } = paths[k]!;
    let node = trie.get(root);
    if (node === undefined) trie.set(root, (node = newNode()));
    for (let i = 0; ; i++) {
      if (node.below++ === 0) node.firstBelow = k;
      if (i === segments.length) break;
      // Segments compare as strings: index 0 and key "0" are one property (see segmentsOverlap).
      const key = String(segments[i]);
      node.children ??= new Map();
      let child = node.children.get(key);
      if (child === undefined) node.children.set(key, (child = newNode()));
      node = child;
    }
    if (node.ending++ === 0) node.firstEnding = k;
  }
  return trie;
}

/** The alternatives that are a prefix of `path`, plus those `path` is a prefix of: one, or -1. */
function lookUp(trie: AlternativeTrie, path: Path): number {
  let node = trie.get(path.root);
  let count = 0;
  let taken = NONE;
  const segments = path.segments;
  for (let i = 0; node !== undefined; i++) {
    if (i === segments.length) {
      if (node.below > 0) {
        count += node.below;
        taken = node.firstBelow;
      }
      break;
    }
    if (node.ending > 0) {
      count += node.ending;
      taken = node.firstEnding;
    }
    if (count > 1) return NONE;
    node = node.children?.get(String(segments[i]));
  }
  return count === 1 ? taken : NONE;
}

/**
 * The read of `ref` among a call's reads, the first as `Array.find` would give it. Made once
 * per call: a scan for a few reads, a map from reference to read past that.
 */
export function readsByReference(reads: readonly ReadBinding[]): (ref: Reference) => ReadBinding | undefined {
  if (reads.length <= SCAN_UP_TO) return (ref) => reads.find((r) => r.ref === ref);
  const byRef = new Map<Reference, ReadBinding>();
  for (const read of reads) if (!byRef.has(read.ref)) byRef.set(read.ref, read);
  return (ref) => byRef.get(ref);
}
