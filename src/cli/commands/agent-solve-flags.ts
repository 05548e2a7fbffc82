/**
 * The plan loop's own flags of `plan agent`, read before any model is asked: `--budget
 * name=value` pairs and the `--context` file, each refused with exit 2 and a message that names
 * the flag when it is wrong.
 */
import { resolveBudget, solveStart } from '../../agent/plan-loop/index.js';
import type { ExecutionMode } from '../../language/document.js';
import type { Limits } from '../../language/limits.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { CliInputError } from '../cli-input-error.js';
import { type CliIo, displayName, readText } from '../io.js';
import { oneLine } from '../output/index.js';

/**
 * `--budget name=value` (repeatable): the plan loop's budget; solve() checks the names and
 * values, and says what is wrong with the flag's name.
 * @throws {CliInputError} (exit 2) for a pair that is not `name=value` with a whole number.
 */
export function budgetFlag(pairs: readonly string[] | undefined): Record<string, number> | undefined {
  if (pairs === undefined) return undefined;
  const given: Record<string, number> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : pair.slice(0, equals).trim();
    const text = equals < 0 ? '' : pair.slice(equals + 1).trim();
    if (name === '' || !/^\d+$/.test(text)) {
      throw new CliInputError(
        `--budget '${pair}' is not name=value; write, for example, --budget maxWallMs=60000 (a whole number)`,
      );
    }
    given[name] = Number(text);
  }
  try {
    resolveBudget(given, '--budget');
  } catch (e) {
    throw new CliInputError(
      (e as Error).message.replace(/^--budget: budget\./, '--budget ').replace(/^--budget: /, ''),
    );
  }
  return given;
}

/**
 * The --context file's text, checked before any model is asked: it must parse as a context and
 * fit the tools (its tool messages name tools that exist, its plan compiles).
 * @throws {CliInputError} (exit 2) naming the file and every problem, on one line.
 */
export async function readContext(
  task: string,
  file: string,
  tools: ToolRegistry,
  limits: Limits,
  io: CliIo,
): Promise<{ readonly text: string; readonly mode: ExecutionMode }> {
  const text = await readText(file, { io, what: 'context file', limits });
  try {
    return { text, mode: solveStart(task, { context: text }, tools.tools(), limits).mode };
  } catch (e) {
    if (e instanceof TypeError)
      throw new CliInputError(`context file '${displayName(file)}': ${oneLine(e.message)}`);
    throw e;
  }
}
