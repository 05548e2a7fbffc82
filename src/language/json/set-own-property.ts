/** Writing a key that came from data: a value, never a prototype change. */
import type { PathSegment } from '../paths.js';

/**
 * Sets an own data property. Assignment is fast, but `obj.__proto__ = v` would set the
 * prototype, so that one key is defined instead. (Paths from the compiler never hold it;
 * argument keys and tool results may.)
 */
export function setOwnProperty(container: object, key: PathSegment, value: unknown): void {
  const name = typeof key === 'string' ? key : String(key);
  if (name === '__proto__') {
    Object.defineProperty(container, name, { value, writable: true, enumerable: true, configurable: true });
  } else {
    (container as Record<string, unknown>)[name] = value;
  }
}
