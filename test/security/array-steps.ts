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

/**
 * Steps of every array iteration (`for...of`, spread) while `work` ran: a list walked once per
 * item, or grown by its own copy, shows as the square of its length.
 */
export function iterationSteps(work: () => void): number {
  const prototype = Object.getPrototypeOf([][Symbol.iterator]()) as { next: () => unknown };
  const original = prototype.next;
  let steps = 0;
  const counting = function (this: unknown) {
    steps++;
    return original.call(this);
  };
  Object.defineProperty(prototype, 'next', { value: counting, configurable: true, writable: true });
  try {
    work();
  } finally {
    Object.defineProperty(prototype, 'next', { value: original, configurable: true, writable: true });
  }
  return steps;
}
