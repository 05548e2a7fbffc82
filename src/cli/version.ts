/** The package version, read from package.json at run time (it is not copied into dist/). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  // src/cli/ in tests, dist/src/cli/ when built: walk up to the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'planmode' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here; keep walking up
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
