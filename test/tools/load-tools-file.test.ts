import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

describe('loadToolsFile: modules that hang or whose exports throw', () => {
  it('gives up on a module whose top-level await never settles, after loadTimeoutMs', async () => {
    const path = file('hangs.mjs', 'await new Promise(() => {});\nexport const tools = [];\n');
    const error = await failure(loadToolsFile(path, { loadTimeoutMs: 200 }));
    expect(error.message).toBe(
      `tools module '${path}' did not finish loading within 200 ms (a top-level await that never settles?); ` +
        'fix the module or raise --load-timeout (loadTimeoutMs in the API)',
    );
    expect(error.file).toBe(path);
  });

  it('a module that loads in time is not cut short', async () => {
    const path = file(
      'slow.mjs',
      'await new Promise((r) => setTimeout(r, 20));\nexport const tools = [{ name: "a" }];\n',
    );
    expect(await loadToolsFile(path, { loadTimeoutMs: 10_000 })).toEqual([{ name: 'a' }]);
  });

  it.each([0, -1, 1.5, Number.NaN, 2_147_483_648, '100', null])(
    'rejects loadTimeoutMs %s with a TypeError naming it',
    async (value) => {
      await expect(
        loadToolsFile(file('ok.mjs', 'export const tools = [];'), { loadTimeoutMs: value as never }),
      ).rejects.toThrow(
        new TypeError(
          `loadToolsFile: loadTimeoutMs must be a whole number from 1 to 2147483647, not ${typeof value === 'string' ? `"${value}"` : String(value)}`,
        ),
      );
    },
  );

  it('rejects options that are not an object', async () => {
    await expect(loadToolsFile('x.mjs', 5 as never)).rejects.toThrow(
      new TypeError('loadToolsFile: options must be an object, not 5'),
    );
  });

  it('a default export that is a Proxy whose traps throw', async () => {
    const path = file(
      'proxy-array.mjs',
      'export default new Proxy([], { get() { throw new Error("trap boom"); } });\n',
    );
    const error = await failure(loadToolsFile(path));
    expect(error.message).toBe(
      `tools file '${path}': reading the length of the default export threw: trap boom; fix the tools module`,
    );
  });

  it('an array entry whose getter throws', async () => {
    const path = file(
      'getter-entry.mjs',
      'export const tools = [{ name: "a" }];\n' +
        'Object.defineProperty(tools, 1, { get() { throw new RangeError("entry boom"); }, enumerable: true });\n',
    );
    const error = await failure(loadToolsFile(path));
    expect(error.message).toBe(
      `tools file '${path}': reading tools[1] threw: entry boom; fix the tools module`,
    );
  });

  it('a revoked Proxy as the tools export, or as an entry', async () => {
    const whole = file(
      'revoked.mjs',
      'const { proxy, revoke } = Proxy.revocable([], {}); revoke();\nexport const tools = proxy;\n',
    );
    expect((await failure(loadToolsFile(whole))).message).toMatch(
      /export "tools" must be an array of tools, not an object/,
    );
    // An entry is only checked to be an object here; reading its fields is ToolRegistry's job.
    const entry = file(
      'revoked-entry.mjs',
      'const { proxy, revoke } = Proxy.revocable({}, {}); revoke();\nexport const tools = [proxy];\n',
    );
    const tools = await loadToolsFile(entry);
    expect(() => new ToolRegistry(tools)).toThrow(
      /^tool 0: reading "name" threw: Cannot perform 'get' on a proxy that has been revoked$/,
    );
  });

  it('returns a plain copy of the array, holding the very definition objects', async () => {
    const path = file('identity.mjs', 'export const tool = { name: "a" };\nexport const tools = [tool];\n');
    const [tool] = await loadToolsFile(path);
    const module = (await import(pathToFileURL(path).href)) as { tool: unknown; tools: unknown };
    expect(tool).toBe(module.tool);
  });

  it('a manifest value whose "tools" getter throws', () => {
    const value = {
      get tools(): unknown {
        throw new Error('getter boom');
      },
    };
    expect(() => toolsFromManifest(value, 'm.json')).toThrow(
      new ToolsFileError(`tools file 'm.json': reading "tools" threw: getter boom; fix the tools module`, {
        file: 'm.json',
      }),
    );
  });
});
