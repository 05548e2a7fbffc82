/**
 * Which definition a tool object stands for (trust binds to the definition object, not to its
 * name). guardTools hands out wrappers, `{...tool, execute}`, that run the original's
 * `execute` behind the guard; a wrapper stands for its original, so trust given to the original
 * holds for its wrappers, and for nothing else that merely shares the name.
 */
import type { Tool } from '../../tools/tool.js';

const originals = new WeakMap<Tool, Tool>();

/** Records that `wrapper` runs `original` (done by guardTools only). */
export function markWrapperOf<T extends Tool>(wrapper: T, original: Tool): T {
  originals.set(wrapper, originalOf(original));
  return wrapper;
}

/** The definition `tool` stands for: its original when it is a guard's wrapper, else itself. */
export function originalOf(tool: Tool): Tool {
  return originals.get(tool) ?? tool;
}

/** Whether two tool objects stand for the same definition. */
export function sameDefinition(a: Tool, b: Tool): boolean {
  return originalOf(a) === originalOf(b);
}
