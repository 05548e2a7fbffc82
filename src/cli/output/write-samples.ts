/**
 * Writing imported samples: `DIR/<id>/plan.json` and `DIR/<id>/tools.json`. Ids are plain
 * folder names (the importers guarantee it), and nothing is written through a link: a
 * `DIR/<id>` that exists as anything but a real folder, or a `plan.json` that is a link, fails
 * that sample with an error, so a planted symlink cannot steer a write outside DIR.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportedSample, ImportProblem } from '../../import/index.js';
import { CliInputError } from '../cli-input-error.js';

/** A sample that was written: its id, line, number of calls and warnings. */
export interface WrittenSample {
  readonly id: string;
  readonly line: number;
  readonly calls: number;
  readonly warnings: readonly ImportProblem[];
}

/** Writes every sample; a sample that cannot be written is an error, the others are written. */
export async function writeSamples(
  out: string,
  samples: readonly ImportedSample[],
): Promise<{ samples: WrittenSample[]; errors: ImportProblem[] }> {
  try {
    await mkdir(out, { recursive: true });
  } catch (cause) {
    throw new CliInputError(`cannot create the folder '${out}': ${(cause as Error).message}`);
  }
  const written: WrittenSample[] = [];
  const errors: ImportProblem[] = [];
  for (const sample of samples) {
    const folder = join(out, sample.id);
    try {
      await ensureFolder(folder);
      await writeFileNoFollow(join(folder, 'plan.json'), `${JSON.stringify(sample.plan, null, 2)}\n`);
      await writeFileNoFollow(join(folder, 'tools.json'), `${JSON.stringify(sample.tools, null, 2)}\n`);
      written.push({
        id: sample.id,
        line: sample.line,
        calls: callsOf(sample.plan),
        warnings: sample.warnings,
      });
    } catch (cause) {
      errors.push({
        severity: 'error',
        code: 'E_IMPORT_ROW',
        line: sample.line,
        sample: sample.id,
        file: 'data',
        message: `cannot write ${folder}: ${(cause as Error).message}`,
      });
    }
  }
  return { samples: written, errors };
}

async function ensureFolder(folder: string): Promise<void> {
  const found = await lstat(folder).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (found === undefined) await mkdir(folder);
  else if (!found.isDirectory())
    throw new Error('it exists and is not a folder (a link or a file); remove it');
}

async function writeFileNoFollow(path: string, text: string): Promise<void> {
  // O_NOFOLLOW: a plan.json that is a link fails (ELOOP) instead of writing where it points.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  const handle = await open(path, flags, 0o644);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

function callsOf(plan: readonly unknown[]): number {
  const message = plan.find((m) => (m as { type?: unknown }).type === 'plan') as
    { plan?: unknown } | undefined;
  return Array.isArray(message?.plan) ? message.plan.length : 0;
}
