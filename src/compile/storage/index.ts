/**
 * The compile's storage: growable integer columns, edge lists, path tries and the per-string
 * facts, in flat arrays so that a plan of 100k calls keeps few objects (see
 * docs/performance.md). The stages keep their results here; nothing here knows a stage.
 */
export { ArgumentColumns } from './argument-columns.js';
export { EdgeList } from './edge-list.js';
export {
  AFTER_EDGE,
  EARLIER,
  EFFECT_EDGE,
  FlowColumns,
  INITIAL,
  INPUT,
  LATER,
  SCHEMA,
  UNSET,
} from './flow-columns.js';
export { PathNodes } from './path-nodes.js';
export { childOf, PathTrie, ReaderLists, type TrieNode } from './path-trie.js';
export { CANONICAL_STATE, ReferenceFacts, SINGLE_INPUT, SINGLE_STATE, UNCHECKED } from './reference-facts.js';
