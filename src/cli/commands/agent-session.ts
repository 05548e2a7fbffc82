/**
 * `plan agent --session FILE`: the plan loop saved to FILE after every turn, and resumed from
 * it when it exists. The file is read (and checked) before the model is asked anything; a file
 * that cannot be resumed from is the command line's fault (exit 2), named with what is wrong.
 */
import { type FileSession, fileSession } from '../../agent/plan-loop/index.js';
import { isSessionError } from '../../errors.js';
import { CliInputError } from '../cli-input-error.js';
import { type CliIo, displayName } from '../io.js';
import { oneLine } from '../output/index.js';

/**
 * The session of `--session`, its snapshot read; one line on stderr when it resumes one.
 * @throws {CliInputError} (exit 2) for a file that is not a snapshot the plan loop wrote.
 */
export async function openSession(
  file: string | undefined,
  io: CliIo,
  quiet: boolean,
): Promise<FileSession | undefined> {
  if (file === undefined) return undefined;
  const session = fileSession(file);
  let snapshot;
  try {
    snapshot = await session.load();
  } catch (e) {
    if (isSessionError(e)) throw new CliInputError(`--session: ${oneLine(e.message)}`);
    throw e;
  }
  if (snapshot && !quiet) {
    const next = snapshot.ended
      ? `the loop had ended ${snapshot.ended.status}`
      : `going on with turn ${snapshot.turn + 1}`;
    io.stderr.write(`plan: resumed the session ${displayName(file)} from turn ${snapshot.turn}: ${next}\n`);
  }
  return session;
}
