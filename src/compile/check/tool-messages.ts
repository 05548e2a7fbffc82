/**
 * A context's `tool` messages name the tools it offers, one per message:
 * `{"type": "tool", "tool": "Tool.detectLanguage"}`. With a tool set given, each must be one of its tools: a name that is not is
 * E_UNKNOWN_TOOL at the message's `tool` value, with the nearest name as a hint, like a call's.
 */
import { countedIfFull, type DiagnosticSink, error } from '../../language/diagnostics.js';
import type { ToolMention } from '../../language/document.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { nearest } from '../nearest.js';

export function checkToolMessages(
  mentions: readonly ToolMention[],
  tools: ToolRegistry,
  pending: DiagnosticSink,
): void {
  for (const mention of mentions) {
    if (tools.get(mention.name)) continue;
    if (countedIfFull(pending, 'error')) continue;
    const names = tools.names();
    const near = nearest(mention.name, names, pending.hints);
    pending.push(
      error(
        'E_UNKNOWN_TOOL',
        mention.pointer,
        `the context names the tool "${mention.name}", which is not one of the tools`,
        {
          hint: near
            ? `did you mean "${near}"?`
            : names.length <= 12
              ? `the tools are: ${names.join(', ')}`
              : 'check the tool name against the tools file',
        },
      ),
    );
  }
}
