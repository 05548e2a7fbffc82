/** Tool.annotationsTrusted: false, how the MCP adapters mark a third party's annotations. */
import { describe, expect, it } from 'vitest';
import { ToolClassifier } from '../../src/agent/index.js';
import { type Tool, ToolRegistry } from '../../src/index.js';

const own: Tool = { name: 'read_own', annotations: { readOnlyHint: true } };
const theirs: Tool = { name: 'read_theirs', annotations: { readOnlyHint: true }, annotationsTrusted: false };

describe('annotationsTrusted', () => {
  it('trustAnnotations: true believes your tools, not those marked untrusted', () => {
    const classifier = new ToolClassifier({ tools: [own, theirs], trustAnnotations: true });
    expect(classifier.isReadOnly('read_own')).toBe(true);
    expect(classifier.isReadOnly('read_theirs')).toBe(false);
  });

  it('a readOnly allowlist, or a trustAnnotations function, still decides', () => {
    expect(new ToolClassifier({ tools: [theirs], readOnly: ['read_*'] }).isReadOnly('read_theirs')).toBe(
      true,
    );
    expect(
      new ToolClassifier({ tools: [theirs], trustAnnotations: () => true }).isReadOnly('read_theirs'),
    ).toBe(true);
  });

  it('the registry wants a boolean', () => {
    expect(() => new ToolRegistry([{ name: 'x', annotationsTrusted: 'no' as never }])).toThrow(
      /"annotationsTrusted" must be a boolean/,
    );
  });
});
