/**
 * Editing a lazy plan at its approval prompt, in the person's own editor: the plan is written to
 * a file in a private temporary folder (mkdtemp, mode 0600), `$EDITOR` (else `$VISUAL`, else
 * `vi`) runs on it with the terminal, and the file is read back as the edited plan. The editor's
 * command is split into words as a shell would split it and spawned without a shell, so nothing
 * in it is interpreted. run() compiles the edit; its errors come back with the next question.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitCommandLine } from '../../adapters/shell-words.js';
import type { PlanApprovalRequest } from '../../run/approval.js';
import type { CliIo } from '../io.js';
import { formatDiagnostics, paint } from '../output/index.js';

/** The editor's command line: `$EDITOR`, else `$VISUAL`, else `vi`. */
export function editorCommand(env: CliIo['env']): string[] {
  const line = [env.EDITOR, env.VISUAL].find((value) => value !== undefined && value.trim() !== '') ?? 'vi';
  const words = splitCommandLine(line);
  return words.length > 0 ? words : ['vi'];
}

/**
 * Writes `text` to a private file, runs the editor on it and returns what the file holds then.
 * @throws {Error} when the editor cannot be started or ends with a failure (nothing is edited).
 */
export async function editInEditor(text: string, env: CliIo['env']): Promise<string> {
  const [command, ...args] = editorCommand(env);
  const dir = await mkdtemp(join(tmpdir(), 'planmode-edit-'));
  try {
    const file = join(dir, 'plan.json');
    await writeFile(file, text, { mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command!, [...args, file], { stdio: 'inherit', env: { ...env } });
      child.once('error', (e) =>
        reject(new Error(`the editor '${command!}' could not be started: ${e.message}`)),
      );
      child.once('exit', (code, signal) => {
        if (code === 0) resolve();
        else
          reject(new Error(`the editor '${command!}' ended with ${signal ?? `exit code ${String(code)}`}`));
      });
    });
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the plan's question needs to ask, edit and show an edit's errors. */
export interface PlanQuestion {
  /** Asks one line (the Prompter's askLine, with the live view stepping aside). */
  readonly askLine: (question: string) => Promise<string | null>;
  /** The listing and dry run of the plan asked about, then the question is appended. */
  readonly listing: string;
  /** The plan's text as the file gave it: what the editor starts from. */
  readonly text: string;
  readonly io: Pick<CliIo, 'env' | 'stderr'>;
  readonly color: boolean;
}

/**
 * The lazy plan's question: `y` runs it, `e` edits it in the editor (the answer is then the
 * edited text, which run() compiles), anything else is a no. Asked again after an edit with
 * errors, it shows them, located in the edited text, and editing starts from that text.
 */
export async function askAboutPlanWithEditor(
  request: PlanApprovalRequest,
  question: PlanQuestion,
): Promise<boolean | { approved: true; plan: string }> {
  const { io, color } = question;
  let text = question.text;
  let prefix = question.listing;
  if (request.edit) {
    text = request.edit.text;
    prefix =
      `${paint('The edited plan does not compile:', color, 'bold')}\n` +
      formatDiagnostics(request.edit.diagnostics, { file: 'edited plan', color }) +
      `${request.edit.retriesLeft === 0 ? 'This is the last try: another edit with errors ends the run.\n' : ''}` +
      'y runs the plan as first given; e edits your edit again.\n';
  }
  for (;;) {
    const line = await question.askLine(`${prefix}Run this plan? [y/N/e(dit)] `);
    const answer = line?.trim().toLowerCase() ?? '';
    if (answer === 'y' || answer === 'yes') return true;
    if (answer !== 'e' && answer !== 'edit') return false;
    try {
      return { approved: true, plan: await editInEditor(text, io.env) };
    } catch (e) {
      prefix = `plan: ${(e as Error).message}\n`;
    }
  }
}
