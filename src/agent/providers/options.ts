/**
 * Checks for provider options: a bad option is a programming mistake, so it throws a
 * TypeError that names the option and the value (never a key's value: see {@link checkApiKey}).
 */

/** Environment variables as providers read them. */
export type Environment = Readonly<Record<string, string | undefined>>;

export function checkOptionsObject(where: string, options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, not ${show(options)}`);
  }
}

export function checkString(where: string, name: string, value: unknown, optional = true): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${where}: ${name} must be a non-empty string, not ${show(value)}`);
  }
}

/** An API key: its value is never shown, only its type. */
export function checkApiKey(where: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '') {
    const what = typeof value === 'string' ? 'an empty string' : `a value of type ${typeof value}`;
    throw new TypeError(`${where}: apiKey must be a non-empty string, not ${what}`);
  }
}

export function checkInteger(where: string, name: string, value: unknown, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`${where}: ${name} must be a whole number >= ${min}, not ${show(value)}`);
  }
}

export function checkBoolean(where: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`${where}: ${name} must be true or false, not ${show(value)}`);
  }
}

/** One of `choices`, or undefined. */
export function checkChoice(where: string, name: string, value: unknown, choices: readonly string[]): void {
  if (value === undefined || (typeof value === 'string' && choices.includes(value))) return;
  throw new TypeError(
    `${where}: ${name} must be ${choices.map((c) => `'${c}'`).join(', ')}, not ${show(value)}`,
  );
}

export function checkRecord(where: string, name: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${where}: ${name} must be an object, not ${show(value)}`);
  }
}

export function checkURL(where: string, name: string, value: unknown): void {
  if (value === undefined) return;
  checkString(where, name, value);
  const protocol = URL.canParse(value as string) ? new URL(value as string).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new TypeError(`${where}: ${name} must be an http:// or https:// URL, not ${show(value)}`);
  }
}

/** A URL for messages: without user name and password, which may be credentials. */
export function showURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return '(an invalid URL)';
  }
}

export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}
