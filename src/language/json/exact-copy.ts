/**
 * The first `count` items of a scratch array, as a new array of exactly that length. Short
 * copies are array literals rather than `slice`: V8 notices that a literal's arrays live long
 * and then makes them where long-lived objects go, so the collector does not copy the 100k
 * small arrays of a large plan twice; `slice` has no such site. Longer ones are rare.
 */
export function exactCopy<T>(scratch: readonly T[], count: number): T[] {
  switch (count) {
    case 0:
      return [];
    case 1:
      return [scratch[0]!];
    case 2:
      return [scratch[0]!, scratch[1]!];
    case 3:
      return [scratch[0]!, scratch[1]!, scratch[2]!];
    case 4:
      return [scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!];
    default:
      return scratch.slice(0, count);
  }
}
