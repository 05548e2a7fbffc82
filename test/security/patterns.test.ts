/**
 * Schema patterns cannot hang planmode (issue 10, point 1). Every `pattern` and
 * `patternProperties` is matched by the linear-time engine: a catastrophic pattern with a string
 * built to make a backtracking engine take 2^40 steps is one pass, whether it is a literal
 * argument checked at compile time (library and CLI), a tool's output checked at run time, or a
 * state schema's key. A pattern the engine cannot express is an error at its place, never a
 * fallback to backtracking. No time is asserted: a hang is caught by the test's timeout.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { compile, run, simulate, type Tool, ToolDefinitionError, ToolRegistry } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-patterns-security-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Each pattern with a string that takes a backtracking engine about 2^40 steps to reject. */
const CATASTROPHIC: readonly (readonly [string, string])[] = [
  ['^(a+)+$', `${'a'.repeat(40)}!`],
  ['(x+x+)+y', 'x'.repeat(40)],
  ['^(\\w+\\s?)*$', `${'a'.repeat(40)}!`],
];

const UNSUPPORTED: readonly (readonly [string, RegExp])[] = [
  ['^(?=.*\\d)[a-z0-9]+$', /lookahead \(\?= at character 2, which the linear-time engine cannot match/],
  ['(?<!x)y', /negative lookbehind \(\?<! at character 1/],
  ['^(a)\\1$', /backreference \\1 at character 5/],
  ['a{2000}', /repeats \{2000\} at character 2, more than the 1000/],
];

const TIMEOUT = { timeout: 30_000 };

function matchingText(pattern: string): string {
  return pattern === '(x+x+)+y' ? 'xxy' : 'aaaa';
}

function stringTool(name: string, pattern: string, where: 'inputSchema' | 'outputSchema'): Tool {
  const schema = { type: 'string', pattern };
  return where === 'inputSchema'
    ? { name, inputSchema: { type: 'object', properties: { text: schema } }, execute: () => null }
    : { name, outputSchema: schema, execute: () => null };
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const code = await main(args, {
    stdout: { write: (text: string) => (out.stdout += text) } as never,
    stderr: { isTTY: false, write: (text: string) => (out.stderr += text) } as never,
    stdin: Readable.from(['']) as never,
    env: {},
  });
  return { code, ...out };
}

let files = 0;
function file(content: unknown): string {
  files += 1;
  const path = join(root, `file-${files}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('catastrophic patterns finish', () => {
  it.each(CATASTROPHIC)(
    '%s in an inputSchema, against a literal argument: E_ARGS',
    TIMEOUT,
    (pattern, text) => {
      const result = compile([{ _tool: 'check', text }], {
        tools: [stringTool('check', pattern, 'inputSchema')],
      });
      expect(result.ok).toBe(false);
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          code: 'E_ARGS',
          pointer: '/0/text',
          message: expect.stringContaining('pattern'),
        }),
      ]);
    },
  );

  it.each(CATASTROPHIC)('%s and a matching argument: valid', TIMEOUT, (pattern) => {
    const matching = matchingText(pattern);
    const result = compile([{ _tool: 'check', text: matching }], {
      tools: [stringTool('check', pattern, 'inputSchema')],
    });
    expect(result.diagnostics).toEqual([]);
  });

  it.each(CATASTROPHIC)('%s through plan validate: exit 1 with E_ARGS', TIMEOUT, async (pattern, text) => {
    const tools = file({
      tools: [{ name: 'check', inputSchema: stringTool('check', pattern, 'inputSchema').inputSchema }],
    });
    const plan = file([{ _tool: 'check', text }]);
    const result = await cli(['validate', plan, '--tools', tools, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      diagnostics: { code: string; pointer: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toEqual([expect.objectContaining({ code: 'E_ARGS', pointer: '/0/text' })]);
  });

  it.each(CATASTROPHIC)(
    '%s in an outputSchema at run time: INVALID_OUTPUT',
    TIMEOUT,
    async (pattern, text) => {
      const tool: Tool = { ...stringTool('produce', pattern, 'outputSchema'), execute: () => text };
      const result = await run([{ _tool: 'produce', _outputPath: '†state.out' }], { tools: [tool] });
      expect(result.calls[0]).toMatchObject({ status: 'failed', error: { code: 'INVALID_OUTPUT' } });
      expect(result.state).toEqual({});
    },
  );

  it.each(CATASTROPHIC)(
    '%s as a tool schema patternProperties key, against an argument key',
    TIMEOUT,
    (pattern, text) => {
      const tool: Tool = {
        name: 'keys',
        inputSchema: {
          type: 'object',
          properties: { map: { type: 'object', patternProperties: { [pattern]: { type: 'number' } } } },
        },
        execute: () => null,
      };
      const matching = matchingText(pattern);
      const result = compile(
        [{ _tool: 'keys', map: { [text]: 'not a number', [matching]: 'not a number' } }],
        {
          tools: [tool],
        },
      );
      // The catastrophic key does not match, so nothing checks its value; the matching key does.
      expect(result.diagnostics).toEqual([
        expect.objectContaining({ code: 'E_ARGS', pointer: `/0/map/${matching}` }),
      ]);
    },
  );

  it.each(CATASTROPHIC)(
    '%s as a state schema patternProperties key: E_STATE_SCHEMA',
    TIMEOUT,
    (pattern, text) => {
      const plan = [
        {
          type: 'state',
          schema: { type: 'object', patternProperties: { [pattern]: {} }, additionalProperties: false },
        },
        { type: 'plan', plan: [{ _tool: 'any', _outputPath: `†state[${JSON.stringify(text)}]` }] },
      ];
      const result = compile(JSON.stringify(plan));
      expect(result.diagnostics).toEqual([
        expect.objectContaining({ code: 'E_STATE_SCHEMA', pointer: '/1/plan/0/_outputPath' }),
      ]);
    },
  );
});

describe('patterns the engine cannot express are errors at their place', () => {
  it.each(UNSUPPORTED)(
    '%s in an inputSchema: ToolDefinitionError naming tool, schema, pointer, pattern, why',
    (pattern, why) => {
      let thrown: unknown;
      try {
        new ToolRegistry([stringTool('lookup', pattern, 'inputSchema')]);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ToolDefinitionError);
      const message = (thrown as Error).message;
      expect(message).toContain(`tool 'lookup': "inputSchema" has a pattern at /properties/text/pattern`);
      expect(message).toContain(JSON.stringify(pattern));
      expect(message).toMatch(why);
    },
  );

  it('in an outputSchema, and every one of them, listed together', () => {
    const tool: Tool = {
      name: 'lookup',
      outputSchema: {
        type: 'object',
        properties: { a: { type: 'string', pattern: '(?=a)' } },
        patternProperties: { '(?<=x)': { type: 'string' } },
        $defs: { b: { type: 'string', pattern: '\\1' } },
        items: { $ref: '#/$defs/b' },
      },
    };
    expect(() => new ToolRegistry([tool])).toThrow(ToolDefinitionError);
    try {
      new ToolRegistry([tool]);
    } catch (e) {
      expect((e as ToolDefinitionError).problems).toEqual([
        expect.stringMatching(
          /^tool 'lookup': "outputSchema" has a pattern at \/properties\/a\/pattern: .*lookahead/,
        ),
        expect.stringMatching(/"outputSchema" has a pattern at \/patternProperties\/\(\?<=x\): .*lookbehind/),
        expect.stringMatching(/"outputSchema" has a pattern at \/\$defs\/b\/pattern: .*backreference/),
      ]);
    }
  });

  it('an enum value with a "pattern" key is not a schema, and is left alone', () => {
    const tool: Tool = {
      name: 'ok',
      inputSchema: { enum: [{ pattern: '(?=x)' }], default: { pattern: '\\1' } },
    };
    expect(new ToolRegistry([tool]).has('ok')).toBe(true);
  });

  it('through plan validate: exit 2 with one line naming it', async () => {
    const [pattern] = UNSUPPORTED[0]!;
    const tools = file({
      tools: [{ name: 'lookup', inputSchema: stringTool('lookup', pattern, 'inputSchema').inputSchema }],
    });
    const plan = file([{ _tool: 'lookup', text: 'a1' }]);
    const result = await cli(['validate', plan, '--tools', tools]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/lookup.*inputSchema.*\/properties\/text\/pattern.*lookahead/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each(UNSUPPORTED)('%s in a state schema: E_STATE_SCHEMA at the key', (pattern, why) => {
    const text = JSON.stringify(
      [
        { type: 'state', schema: { type: 'object', patternProperties: { [pattern]: { type: 'number' } } } },
        { type: 'plan', plan: [{ _tool: 'any', _outputPath: '†state.x' }] },
      ],
      null,
      2,
    );
    const result = compile(text);
    expect(result.ok).toBe(false);
    const found = result.diagnostics.filter((d) => d.code === 'E_STATE_SCHEMA');
    expect(found).toHaveLength(1);
    const [diagnostic] = found;
    expect(diagnostic!.pointer).toBe(`/0/schema/patternProperties/${pattern}`);
    expect(diagnostic!.message).toMatch(why);
    expect(diagnostic!.message).toContain(JSON.stringify(pattern));
    // The position is the key's, on the line where the pattern is written.
    const line = text.split('\n')[diagnostic!.line - 1]!;
    expect(line.slice(diagnostic!.column - 1).startsWith(JSON.stringify(pattern))).toBe(true);
  });

  it('a state schema with too many pattern characters and steps together: one E_STATE_SCHEMA, then nothing compiled', () => {
    const patternProperties: Record<string, object> = {};
    for (let i = 0; i < 200; i++) patternProperties[`^k${i}_${'[a-z]'.repeat(500)}$`] = {};
    const result = compile([
      { type: 'state', schema: { type: 'object', patternProperties } },
      { type: 'plan', plan: [{ _tool: 'any', _outputPath: '†state.x' }] },
    ]);
    const found = result.diagnostics.filter((d) => d.code === 'E_STATE_SCHEMA');
    expect(found[0]!.message).toMatch(/larger together than the 100000 characters and steps/);
    expect(found[0]!.pointer).toMatch(/^\/0\/schema\/patternProperties\/\^k\d+_/);
  });
});

describe('formats with adversarial strings', () => {
  const tool = (format: string): Tool => ({
    name: 'fmt',
    inputSchema: { type: 'object', properties: { value: { type: 'string', format } } },
  });

  it.each([
    ['url', `http://a:${':'.repeat(200_000)}#`],
    ['email', `${'a.'.repeat(100_000)}@`],
    ['hostname', `${'a-'.repeat(100_000)}!`],
    ['uri', `a:${'/'.repeat(200_000)} `],
    ['date-time', `${'T'.repeat(200_000)}.`],
    ['regex', `${'(a+)+'.repeat(1000)}(?=x)`],
  ])('%s: E_ARGS, and it finishes', TIMEOUT, (format, value) => {
    const result = compile([{ _tool: 'fmt', value }], { tools: [tool(format)] });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_ARGS',
        pointer: '/0/value',
        message: expect.stringContaining(format),
      }),
    ]);
  });
});

describe('dry-run samples from hostile output schemas', () => {
  it('a pattern whose strings would be astronomically long: sampled without it', TIMEOUT, () => {
    // Each nested star multiplies json-schema-faker's string by 5: 5^21 characters.
    const pattern = `^${'('.repeat(20)}a*${')*'.repeat(20)}$`;
    const tool: Tool = {
      name: 'big',
      outputSchema: { type: 'object', properties: { s: { type: 'string', pattern } } },
    };
    const simulation = simulate([{ _id: 'b', _tool: 'big', _outputPath: '†state.out' }], { tools: [tool] });
    const sample = simulation.samples.b!;
    expect(sample.source).toBe('schema');
    expect(typeof (sample.value as { s: unknown }).s).toBe('string');
    expect((sample.value as { s: string }).s.length).toBeLessThan(1_000);
  });

  it('patternProperties against a long property name: not matched by backtracking', TIMEOUT, () => {
    const tool: Tool = {
      name: 'names',
      outputSchema: {
        type: 'object',
        properties: { [`${'a'.repeat(40)}!`]: { type: 'string' } },
        patternProperties: { '^(a+)+$': { type: 'number' } },
      },
    };
    const simulation = simulate([{ _id: 'n', _tool: 'names', _outputPath: '†state.out' }], { tools: [tool] });
    expect(simulation.samples.n!.source).toBe('schema');
    expect(Object.keys(simulation.samples.n!.value as object)).toEqual([`${'a'.repeat(40)}!`]);
  });
});
