/**
 * The one file plan mode lets the model write: `<plansDir>/<name>`, nothing else. The name is
 * a plain file name (no separators, no `..`, not absolute), checked when the tools are made;
 * at each write the directory must still be the one first seen (not swapped for a link to
 * elsewhere), an existing plan file must be a regular file (a symbolic link is refused, never
 * followed), and the content goes to a fresh temporary file renamed over the plan file, so a
 * hard link to a file outside is replaced, not written through.
 */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { constants, lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { PermissionDeniedError } from '../errors.js';
import { describeValue } from './describe-value.js';

export class PlanFile {
  /** The plan file's path, as `plansDir` was given. */
  readonly path: string;
  readonly #dir: string;
  readonly #name: string;
  #root: string | undefined;

  /** @throws {TypeError} for a directory or file name that is not usable. */
  constructor(plansDir: string, name: string, where = 'PlanFile') {
    if (typeof plansDir !== 'string' || plansDir === '' || plansDir.includes('\0')) {
      throw new TypeError(`${where}: plansDir must be a directory path, not ${describeValue(plansDir)}`);
    }
    if (
      typeof name !== 'string' ||
      name === '' ||
      name === '.' ||
      name === '..' ||
      /[/\\\0]/.test(name) ||
      isAbsolute(name)
    ) {
      throw new TypeError(
        `${where}: planFile must be a plain file name inside plansDir (no '/', '\\' or '..'), not ${describeValue(name)}`,
      );
    }
    this.#dir = resolve(plansDir);
    this.#name = name;
    this.path = join(plansDir, name);
    try {
      this.#root = realpathSync(this.#dir);
    } catch {
      // Created at the first write.
    }
  }

  /**
   * Replaces the plan file's content.
   * @throws {PermissionDeniedError} when the write would leave the plans directory.
   */
  async write(content: string): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const root = await this.#checkedRoot('plan_write');
    const target = join(root, this.#name);
    await this.#refuseSpecial(target, 'plan_write');
    const temporary = join(root, `.${this.#name}.${randomBytes(6).toString('hex')}.tmp`);
    // 'wx' = O_CREAT | O_EXCL: never opens an existing file, never follows a link.
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    try {
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * The plan file's content, or null when there is none yet.
   * @throws {PermissionDeniedError} when it is a link or not a regular file.
   */
  async read(): Promise<string | null> {
    let root: string;
    try {
      root = await this.#checkedRoot('exit_plan_mode');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const target = join(root, this.#name);
    if (!(await this.#refuseSpecial(target, 'exit_plan_mode'))) return null;
    const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  async #checkedRoot(tool: string): Promise<string> {
    const real = await realpath(this.#dir);
    if (this.#root === undefined) this.#root = real;
    if (real !== this.#root) {
      throw new PermissionDeniedError(
        tool,
        `the plans directory ${this.#dir} now leads to ${real}, not ${this.#root}; plan mode uses only the plans directory`,
      );
    }
    return real;
  }

  /** Whether the plan file exists; refuses one that is not a regular file. */
  async #refuseSpecial(target: string, tool: string): Promise<boolean> {
    let stats;
    try {
      stats = await lstat(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    if (stats.isSymbolicLink()) {
      throw new PermissionDeniedError(
        tool,
        `the plan file ${this.path} is a symbolic link; plan mode reads and writes only a regular file inside the plans directory`,
      );
    }
    if (!stats.isFile()) {
      throw new PermissionDeniedError(tool, `the plan file ${this.path} is not a regular file`);
    }
    return true;
  }
}
