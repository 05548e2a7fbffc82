/** Context messages of type "tool": recorded, checked against the tool set, located when wrong. */
import { describe, expect, it } from 'vitest';
import { compile, parsePlan } from '../../src/index.js';
import { codes, only, positionOfText } from './helpers.js';

const tools = [{ name: 'detectLanguage' }, { name: 'isEnglish' }, { name: 'translateText' }];

/** The schema-guided walkthrough's context as written (with a plan message, so it is a plan). */
const context = `[
  { "type": "tool", "tool": "Tool.detectLanguage" },
  { "type": "tool", "tool": "Tool.isEnglish" },
  { "type": "tool", "tool": "translateText" },
  { "type": "input", "text": "Bonjour le monde" },
  {
    "type": "plan",
    "plan": [
      { "_tool": "detectLanguage", "text": "†input.text", "_outputPath": "†state.language" }
    ]
  }
]`;

describe('tool messages', () => {
  it('are read, the Tool. prefix dropped, each with the pointer to its name', () => {
    const { document, diagnostics } = parsePlan(context);
    expect(diagnostics).toEqual([]);
    expect(document!.tools).toEqual([
      { name: 'detectLanguage', pointer: '/0/tool' },
      { name: 'isEnglish', pointer: '/1/tool' },
      { name: 'translateText', pointer: '/2/tool' },
    ]);
    expect(document!.calls).toHaveLength(1);
  });

  it('compile with a tool set that has every tool named', () => {
    expect(compile(context, { tools }).diagnostics).toEqual([]);
  });

  it('a tool the tool set does not have is E_UNKNOWN_TOOL at the message, with the nearest name', () => {
    const text = context.replace('Tool.isEnglish', 'Tool.isEnglsh');
    const result = compile(text, { tools });
    expect(result.ok).toBe(false);
    const d = only(result.diagnostics, 'E_UNKNOWN_TOOL');
    expect(d).toMatchObject({ pointer: '/1/tool', hint: 'did you mean "isEnglish"?' });
    expect(d.message).toContain('"isEnglsh"');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"Tool.isEnglsh"'));
    expect(d.call).toBeUndefined();
  });

  it('without a tool set, any name is recorded and nothing is checked', () => {
    const text = context.replace('Tool.isEnglish', 'Tool.anything');
    const result = compile(text);
    expect(result.ok).toBe(true);
    expect(result.document!.tools!.map((t) => t.name)).toContain('anything');
  });

  it('do not limit the calls: a call may use a tool of the set that no message names', () => {
    const text = context.replace('"_tool": "detectLanguage"', '"_tool": "translateText"');
    const fewer = text.replace('{ "type": "tool", "tool": "translateText" },\n', '');
    expect(compile(fewer, { tools }).ok).toBe(true);
  });

  it.each([
    ['{ "type": "tool" }', '/0', /needs "tool"/],
    ['{ "type": "tool", "tool": 7 }', '/0/tool', /needs "tool".*a number/],
    ['{ "type": "tool", "tool": "Tool." }', '/0/tool', /needs "tool"/],
    ['{ "type": "tool", "tool": "a", "description": "x" }', '/0/description', /unknown key "description"/],
  ])('%s is E_SHAPE at %s', (message, pointer, text) => {
    const result = compile(`[${message}, {"type": "plan", "plan": []}]`, { tools });
    const d = only(result.diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe(pointer);
    expect(d.message).toMatch(text);
    expect(codes(result.diagnostics).filter((c) => c !== 'E_SHAPE')).toEqual(
      message.includes('"a"') ? ['E_UNKNOWN_TOOL'] : [],
    );
  });
});
