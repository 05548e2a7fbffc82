/** Workflows in JSON manifests: the plan inline or as a file beside the manifest. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadToolsFile, ToolDefinitionError, ToolRegistry, ToolsFileError } from '../../src/index.js';

let dir: string;
const search = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { hits: { type: 'array' } }, required: ['hits'] },
};

async function manifest(name: string, tools: unknown[], text?: string): Promise<string> {
  const path = join(dir, 'app', name);
  await writeFile(path, text ?? JSON.stringify({ tools }, null, 2));
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'planmode-workflows-'));
  await mkdir(join(dir, 'app', 'plans'), { recursive: true });
  await writeFile(join(dir, 'outside.json'), '[]');
  await writeFile(
    join(dir, 'app', 'plans', 'research.json'),
    '[\n  {"_tool": "search", "q": "†input.topic", "_outputPath": "†state.found"},\n  {"_tool": "serch", "_outputPath": "†state.x"}\n]\n',
  );
  await symlink(join(dir, 'outside.json'), join(dir, 'app', 'plans', 'link.json'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function problems(make: () => unknown): string[] {
  try {
    make();
  } catch (e) {
    if (e instanceof ToolDefinitionError) return [...e.problems];
    throw e;
  }
  return [];
}

describe('a workflow in a manifest', () => {
  it('gives an inline plan, whose mistakes are placed at the manifest’s lines and columns', async () => {
    const text = `{"tools": [
  {"name": "search"},
  {"name": "r", "output": "†state.x",
   "plan": [
     {"_tool": "nope", "_outputPath": "†state.x"}
   ]}
]}`;
    const path = await manifest('inline.json', [], text);
    const tools = await loadToolsFile(path);
    expect(tools[1]!.planOrigin).toEqual({ file: path, line: 4, column: 12 });
    const found = problems(() => new ToolRegistry(tools));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`workflow 'r': ${path}:5:16: E_UNKNOWN_TOOL`);
  });

  it('reads a plan file relative to the manifest, with positions in that file', async () => {
    const path = await manifest('file.json', [
      search,
      { name: 'research', plan: 'plans/research.json', output: '†state.found' },
    ]);
    const tools = await loadToolsFile(path);
    const found = problems(() => new ToolRegistry(tools));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(
      `workflow 'research': ${join(dir, 'app', 'plans', 'research.json')}:3:13: E_UNKNOWN_TOOL`,
    );
  });

  it('refuses a plan path that leaves the manifest’s folder', async () => {
    for (const plan of [
      '../outside.json',
      'plans/../../outside.json',
      join(dir, 'outside.json'),
      'plans/link.json',
    ]) {
      const path = await manifest('escape.json', [{ name: 'w', plan, output: '†state.x' }]);
      const error = await loadToolsFile(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, plan).toBeInstanceOf(ToolsFileError);
      expect((error as Error).message, plan).toMatch(
        /tools\[0\] \("w"\) "plan" (may not leave|must be a path relative|names .* a link that leads out)/,
      );
    }
  });
});
