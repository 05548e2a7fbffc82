/**
 * Work counted rather than timed: how many elements an array method's callback saw while `work`
 * ran. A search that scans a list once per item shows as the square of the list's length.
 */
type Searching = 'find' | 'some';

export function arraySteps(method: Searching, work: () => void): number {
  const original = Array.prototype[method] as (this: unknown[], ...args: unknown[]) => unknown;
  let steps = 0;
  const counting = function (this: unknown[], callback: (...args: unknown[]) => unknown, thisArg?: unknown) {
    return original.call(this, (value: unknown, index: number, array: unknown[]) => {
      steps++;
      return callback.call(thisArg, value, index, array);
    });
  };
  Object.defineProperty(Array.prototype, method, { value: counting, configurable: true, writable: true });
  try {
    work();
  } finally {
    Object.defineProperty(Array.prototype, method, { value: original, configurable: true, writable: true });
  }
  return steps;
}
