/** `registry.names()` lists the tools in the order they were defined, as docs/tools.md says. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineTool, ToolRegistry } from '../../src/tools/index.js';
import { ROOT } from '../cli/helpers.js';

describe('ToolRegistry.names()', () => {
  it('is the definition order, not sorted', () => {
    const tools = ['summarize', 'getWeather', 'sendEmail'].map((name) =>
      defineTool({ name, inputSchema: { type: 'object' }, execute: () => null }),
    );
    expect(new ToolRegistry(tools).names()).toEqual(['summarize', 'getWeather', 'sendEmail']);
  });

  it('is documented so', () => {
    const page = readFileSync(join(ROOT, 'docs/tools.md'), 'utf8');
    expect(page).toContain('registry.names(); // [');
    expect(page).toMatch(/registry\.names\(\);[^\n]*in the order they were defined/);
  });
});
