/** The parts of a tool every plan-schema format reads the same way. */
import type { Tool } from '../../tools/tool.js';

/** `_tool: {const: <name>}`, with the tool's description for the model. */
export function toolConst(tool: Tool): Record<string, unknown> {
  return { type: 'string', const: tool.name, ...(tool.description && { description: tool.description }) };
}

export function inputOf(tool: Tool): Record<string, unknown> {
  return typeof tool.inputSchema === 'object' ? tool.inputSchema : {};
}

/** The arguments a tool declares, without `_` names (meta keys are the plan's own). */
export function declaredProperties(input: Record<string, unknown>): [string, unknown][] {
  const declared = input.properties;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) return [];
  // Meta keys are the plan's own, whatever a tool declares under those names.
  return Object.entries(declared).filter(([name]) => !name.startsWith('_'));
}
