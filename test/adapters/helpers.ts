/** Helpers for the tests that start MCP servers. */
import { readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';

/** Every file under dir with its bytes. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length)] = readFileSync(path).toString('base64');
  }
  return files;
}

/** The file's content once it has some: woken by the directory's change events, not by polling. */
export function fileContent(dir: string, name: string): Promise<string> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      let text = '';
      try {
        text = readFileSync(join(dir, name), 'utf8');
      } catch {
        return;
      }
      if (text === '') return;
      watcher.close();
      resolve(text);
    });
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
