/** The run's input and initial state, from the plan and the options, checked against the limits. */
import { PlanValidationError } from '../../errors.js';
import { error as diagnostic } from '../../language/diagnostics.js';
import type { JsonObject } from '../../language/document.js';
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import { describeProblem } from '../call/index.js';

/**
 * The run's input or initial state: the plan's and the option's values (the option's win),
 * merged only when both have some, and checked against the limits. Nothing here walks a value
 * the compiler checked already, and a state of a million keys is not copied.
 * @throws {PlanValidationError} (E_LIMIT) when a value is over a limit.
 * @throws {TypeError} when the option holds something JSON cannot (a function, a cycle...).
 */
export function checkedInitial(
  what: 'input' | 'state',
  fromPlan: JsonObject | undefined,
  fromOption: JsonObject | undefined,
  limits: Limits,
): { value: JsonObject; size: number } {
  if (fromOption === undefined || fromOption === fromPlan) return checkedValue(what, fromPlan ?? {}, limits);
  const option = checkedValue(what, fromOption, limits);
  if (fromPlan === undefined) return option;
  const plan = checkedValue(what, fromPlan, limits);
  // `{}` is 2 characters of JSON: no merge needed with an empty side.
  if (plan.size <= 2) return option;
  if (option.size <= 2) return plan;
  return checkedValue(what, { ...fromPlan, ...fromOption }, limits);
}

function checkedValue(what: string, value: JsonObject, limits: Limits): { value: JsonObject; size: number } {
  const checked = checkJson(value, { limits });
  if ('size' in checked) return { value, size: checked.size };
  const { problem } = checked;
  if (problem.code === 'NOT_JSON') {
    throw new TypeError(`Expected ${what} to be JSON data, but ${describeProblem(what, problem)}`);
  }
  const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
  const found = diagnostic('E_LIMIT', '', `the ${what}${where} ${problem.message}`, { hint: problem.hint });
  throw new PlanValidationError([{ ...found, line: 1, column: 1 }]);
}
