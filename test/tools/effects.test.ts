/** Which tools have effects, so that their calls follow program order (src/tools/effects.ts). */
import { describe, expect, it } from 'vitest';
import { ToolClassifier } from '../../src/agent/index.js';
import { type Tool, ToolRegistry } from '../../src/index.js';
import { declaresEffects, followsProgramOrder, trustedReadOnlyHint } from '../../src/tools/effects.js';

const cases: [string, Tool, boolean][] = [
  ['a tool that declares nothing', { name: 't' }, false],
  ['needsApproval', { name: 't', needsApproval: true }, true],
  ['destructiveHint: true', { name: 't', annotations: { destructiveHint: true } }, true],
  ['readOnlyHint: false', { name: 't', annotations: { readOnlyHint: false } }, true],
  [
    'readOnlyHint: false with destructiveHint: false (an additive effect)',
    { name: 't', annotations: { readOnlyHint: false, destructiveHint: false } },
    true,
  ],
  ['a trusted readOnlyHint: true', { name: 't', annotations: { readOnlyHint: true } }, false],
  [
    'a trusted readOnlyHint: true outweighs destructiveHint (MCP: meaningful only when not read-only)',
    { name: 't', annotations: { readOnlyHint: true, destructiveHint: true } },
    false,
  ],
  [
    'a trusted readOnlyHint: true outweighs needsApproval',
    { name: 't', needsApproval: true, annotations: { readOnlyHint: true } },
    false,
  ],
  [
    'an untrusted readOnlyHint: true is not believed: its destructiveHint is (a claim of effects costs only parallelism)',
    { name: 't', annotationsTrusted: false, annotations: { readOnlyHint: true, destructiveHint: true } },
    true,
  ],
  [
    'an untrusted readOnlyHint: true alone declares nothing',
    { name: 't', annotationsTrusted: false, annotations: { readOnlyHint: true } },
    false,
  ],
  [
    'an untrusted readOnlyHint: false is believed',
    { name: 't', annotationsTrusted: false, annotations: { readOnlyHint: false } },
    true,
  ],
  [
    'a latent tool never has effects (the model writes its result)',
    { name: 't', latent: true, needsApproval: true, annotations: { readOnlyHint: false } },
    false,
  ],
];

describe('declaresEffects', () => {
  it.each(cases)('%s', (_what, tool, effects) => {
    expect(declaresEffects(tool)).toBe(effects);
    expect(new ToolRegistry([tool]).get('t')!.programOrder).toBe(effects);
  });

  it('independent: true takes a tool with effects out of program order', () => {
    const tool: Tool = { name: 't', independent: true, annotations: { destructiveHint: true } };
    expect(declaresEffects(tool)).toBe(true);
    expect(followsProgramOrder(tool)).toBe(false);
    expect(new ToolRegistry([tool]).get('t')!.programOrder).toBe(false);
  });

  it('believes a read-only hint by the same rule as plan mode', () => {
    const tools: Tool[] = [
      { name: 'own', annotations: { readOnlyHint: true } },
      { name: 'theirs', annotations: { readOnlyHint: true }, annotationsTrusted: false },
      { name: 'plain' },
    ];
    const classifier = new ToolClassifier({ tools });
    for (const tool of tools) expect(trustedReadOnlyHint(tool)).toBe(classifier.isReadOnly(tool.name, tool));
  });
});

describe('the registry', () => {
  it('wants independent to be a boolean', () => {
    expect(() => new ToolRegistry([{ name: 'x', independent: 'yes' as never }])).toThrow(
      /"independent" must be a boolean/,
    );
  });

  it('sums up program order in one key: empty for plain tools', () => {
    expect(
      new ToolRegistry([{ name: 'a' }, { name: 'b', annotations: { readOnlyHint: true } }]).programOrderKey,
    ).toBe('');
    const key = new ToolRegistry([
      { name: 'refund', needsApproval: true },
      { name: 'log', independent: true },
    ]).programOrderKey;
    expect(key).toBe('"refund":effect,"log":independent,');
  });
});
