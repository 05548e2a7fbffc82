/** The shapes of the values a journal record holds, as its reader tests them. */

export function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isCallError(value: unknown): boolean {
  if (!isObject(value) || typeof value.message !== 'string') return false;
  for (const key of Object.keys(value)) {
    if (key === 'code' ? typeof value.code !== 'string' : key !== 'message') return false;
  }
  return true;
}

export function isStandIn(value: unknown): boolean {
  if (!isObject(value) || typeof value.unserializable !== 'string') return false;
  return Object.keys(value).length === 1;
}
