/**
 * Checks of a tool definition's numbers: `timeoutMs`, `estimatedMs` and `retries`.
 * A retry policy is checked key by key, unknown keys included: a typo such as `dealyMs` would
 * otherwise fall back to the default delay without a word.
 */
import { isArrayValue, showValue, thrownMessage } from './safe-describe.js';

/**
 * The longest delay Node's timers can wait: setTimeout fires at once for anything longer, so
 * a larger timeout or retry delay would mean no wait at all.
 */
export const MAX_DELAY_MS = 2_147_483_647;

const RETRY_POLICY_KEYS: readonly string[] = ['limit', 'delayMs', 'maxDelayMs', 'factor'];
const POLICY_SHAPE = '{"limit": n, "delayMs"?: ms, "maxDelayMs"?: ms, "factor"?: x}';
/** Unknown keys named in one problem; a policy with more gets "and N more". */
const MAX_UNKNOWN_SHOWN = 3;

/** The problem with a time in milliseconds (`timeoutMs`, `retries.delayMs`), if any. */
export function delayProblem(value: unknown, field: string): string | undefined {
  if (typeof value === 'number' && value >= 0 && value <= MAX_DELAY_MS) return undefined;
  return `"${field}" must be a number of milliseconds from 0 to ${MAX_DELAY_MS}, not ${showValue(value)}`;
}

/** The problems with a `retries` value: a count, or a policy {@link POLICY_SHAPE}. */
export function retriesProblems(retries: unknown): string[] {
  if (typeof retries === 'number') {
    return isCount(retries)
      ? []
      : [`"retries" must be a whole number >= 0 or a policy ${POLICY_SHAPE}, not ${showValue(retries)}`];
  }
  if (retries === null || typeof retries !== 'object' || isArrayValue(retries)) {
    return [`"retries" must be a whole number >= 0 or a policy ${POLICY_SHAPE}, not ${showValue(retries)}`];
  }
  const problems: string[] = [];
  const policy = retries as Record<string, unknown>;
  let keys: string[];
  try {
    keys = Object.keys(policy);
  } catch (e) {
    return [`listing the keys of "retries" threw: ${thrownMessage(e)}`];
  }
  const unknown = keys.filter((key) => !RETRY_POLICY_KEYS.includes(key));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, MAX_UNKNOWN_SHOWN).map((key) => showValue(key));
    const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : '';
    problems.push(
      `"retries" has unknown key${unknown.length === 1 ? '' : 's'} ${shown.join(', ')}${more}; a retry policy has only limit, delayMs, maxDelayMs and factor`,
    );
  }
  for (const key of RETRY_POLICY_KEYS) {
    let value: unknown;
    try {
      value = policy[key];
    } catch (e) {
      problems.push(`reading "retries.${key}" threw: ${thrownMessage(e)}`);
      continue;
    }
    const problem = policyValueProblem(key, value);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

function policyValueProblem(key: string, value: unknown): string | undefined {
  const field = `retries.${key}`;
  if (key === 'limit') {
    if (value === undefined) return `"${field}" is missing: a retry policy is ${POLICY_SHAPE}`;
    return isCount(value) ? undefined : `"${field}" must be a whole number >= 0, not ${showValue(value)}`;
  }
  if (value === undefined) return undefined;
  if (key === 'factor') {
    return typeof value === 'number' && Number.isFinite(value) && value >= 1
      ? undefined
      : `"${field}" must be a finite number >= 1, not ${showValue(value)}`;
  }
  return delayProblem(value, field);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
