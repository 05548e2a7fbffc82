import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPlanError, isToolsFileError, ToolsFileError } from '../../src/errors.js';
import { loadToolsFile, ToolRegistry, toolsFromManifest } from '../../src/tools/index.js';

const dir = mkdtempSync(join(tmpdir(), 'planmode-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<ToolsFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolsFileError(error)) throw new Error(`expected a ToolsFileError, got ${String(error)}`);
  return error;
}

describe('loadToolsFile', () => {
  it('loads a JSON manifest', async () => {
    const path = file('tools.json', '\ufeff{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}');
    const tools = await loadToolsFile(path);
    expect(tools).toEqual([{ name: 'a', inputSchema: { type: 'object' } }]);
    expect(new ToolRegistry(tools).names()).toEqual(['a']);
  });

  it('loads a module exporting tools, or a default array, with execute functions', async () => {
    const named = await loadToolsFile(
      file('named.mjs', 'export const tools = [{ name: "a", execute: () => 1 }];'),
    );
    expect(named[0]?.name).toBe('a');
    expect(typeof named[0]?.execute).toBe('function');
    const byDefault = await loadToolsFile(file('default.mjs', 'export default [{ name: "b" }];'));
    expect(byDefault).toEqual([{ name: 'b' }]);
    expect(await loadToolsFile(file('plain.js', 'export const tools = [];'))).toEqual([]);
  });

  it('reports a missing file, with the file named', async () => {
    const error = await failure(loadToolsFile(join(dir, 'missing.json')));
    expect(error.message).toMatch(/tools file '.*missing\.json' does not exist; check the path/);
    expect(error.file).toBe(join(dir, 'missing.json'));
    expect(error.name).toBe('ToolsFileError');
    expect(error).toBeInstanceOf(ToolsFileError);
    expect(isPlanError(error)).toBe(true);
  });

  it('reports invalid JSON with line and column', async () => {
    const error = await failure(
      loadToolsFile(file('broken.json', '{\n  "tools": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}')),
    );
    expect(error).toMatchObject({ line: 4, column: 5 });
    expect(error.message).toMatch(/is not valid JSON at 4:5: unexpected "\{"; /);
  });

  it('reports the index and name of a bad entry', async () => {
    const error = await failure(loadToolsFile(file('entry.json', '{"tools": [{"name": "a"}, 7]}')));
    expect(error).toMatchObject({ index: 1 });
    expect(error.message).toMatch(/tools\[1\] must be a tool definition object, not a number/);
    const code = await failure(
      loadToolsFile(file('code.json', '{"tools": [{"name": "a"}, {"name": "b", "execute": "run"}]}')),
    );
    expect(code).toMatchObject({ index: 1, tool: 'b' });
  });

  it('reports a module that throws, keeping the cause', async () => {
    const error = await failure(loadToolsFile(file('throws.mjs', 'throw new TypeError("no config");')));
    expect(error.message).toMatch(/tools module '.*throws\.mjs' failed to load \(TypeError: no config\)/);
    expect((error.cause as Error).message).toBe('no config');
  });

  it('reports a module that exports neither tools nor a default array', async () => {
    const error = await failure(
      loadToolsFile(file('neither.mjs', 'export default { tools: [] }; export const other = 1;')),
    );
    expect(error.message).toMatch(
      /exports neither "tools" nor a default array \(it exports "default", "other"\); add `export const tools = \[\.\.\.\]`/,
    );
  });

  it('rejects other extensions', async () => {
    const error = await failure(loadToolsFile(file('tools.yaml', 'tools: []')));
    expect(error.message).toMatch(/extension '\.yaml'/);
  });
});

describe('toolsFromManifest', () => {
  it('reads a parsed manifest', () => {
    expect(toolsFromManifest({ tools: [{ name: 'a' }] }, 'm.json')).toEqual([{ name: 'a' }]);
  });

  it.each([
    [[{ name: 'a' }], /must hold a JSON object .*not an array; wrap the array/],
    [null, /not null/],
    [{}, /it has no "tools" key/],
    [{ tools: 'a' }, /"tools" is a string/],
    [{ tools: [null] }, /tools\[0\] must be a tool definition object, not null/],
  ])('rejects %j', (value, message) => {
    expect(() => toolsFromManifest(value, 'm.json')).toThrow(message);
    try {
      toolsFromManifest(value, 'm.json');
    } catch (e) {
      expect(isToolsFileError(e)).toBe(true);
      expect((e as ToolsFileError).file).toBe('m.json');
    }
  });
});
