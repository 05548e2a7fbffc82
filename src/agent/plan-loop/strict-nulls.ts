/**
 * Undoes what OpenAI's strict structured outputs add to a plan. Strict mode requires every
 * property, so the strict plan schema (planSchema's `openai-strict` format) makes each optional
 * one `<schema> | null`, and a model that leaves a key out writes `null` instead. Before the
 * plan is compiled, such nulls are dropped again: a meta key (`_id`, `_outputPath`, `_output`, `_onError`, `_forEach`)
 * that is null, and a null argument, at any depth, whose key the tool's inputSchema does not
 * require and whose schema does not itself admit null.
 *
 * The calls come from a model's reply (bounded by the compile limits when parsed); the walk uses
 * an explicit stack, never recursion, and deletes keys in place (array indices do not move, so
 * every diagnostic still points at the right place in the reply).
 */
import { type CompileOptions, type CompileResult, compile } from '../../compile/compile.js';
import { schemaCompat } from '../../compile/check/index.js';
import { asStrict, compareDiagnostics, hasErrors } from '../../language/diagnostics.js';
import { parsePlan } from '../../language/parse/index.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema } from '../../tools/tool.js';

const OPTIONAL_META_KEYS = ['_id', '_outputPath', '_output', '_onError', '_forEach'] as const;

type Record_ = Record<string, unknown>;

/** Drops the nulls strict mode put in place of left-out keys, in place. */
export function dropStrictNulls(calls: readonly unknown[], tools: ToolRegistry): void {
  const stack: { value: Record_; schema: JsonSchema }[] = [];
  for (const call of calls) {
    if (!isRecord(call)) continue;
    for (const key of OPTIONAL_META_KEYS) if (call[key] === null) delete call[key];
    const tool = typeof call._tool === 'string' ? tools.get(call._tool)?.tool : undefined;
    if (tool?.inputSchema && typeof tool.inputSchema === 'object')
      stack.push({ value: call, schema: tool.inputSchema });
    while (stack.length > 0) {
      const { value, schema } = stack.pop()!;
      if (typeof schema !== 'object') continue;
      const properties = isRecord(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
      for (const key of Object.keys(value)) {
        // Meta keys are the call's own (handled above), never a tool's arguments.
        if (value === call && key.startsWith('_')) continue;
        if (!Object.hasOwn(properties, key)) continue;
        const member = value[key];
        const memberSchema = properties[key]!;
        if (member === null) {
          if (!required.includes(key) && schemaCompat({ const: null }, memberSchema) === 'never')
            delete value[key];
        } else if (isRecord(member)) stack.push({ value: member, schema: memberSchema });
        else if (Array.isArray(member) && typeof memberSchema === 'object' && isRecord(memberSchema.items)) {
          for (const element of member) {
            if (isRecord(element)) stack.push({ value: element, schema: memberSchema.items as JsonSchema });
          }
        }
      }
    }
  }
}

function isRecord(value: unknown): value is Record_ {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `compile(text, options)` for a reply written under the strict plan schema: the text is parsed,
 * its strict nulls dropped, then compiled, with the parse's diagnostics (a comment, a trailing
 * comma) kept as compile would keep them.
 */
export function compileStrictReply(text: string, options: CompileOptions): CompileResult {
  const parsed = parsePlan(text, {
    ...(options.limits && { limits: options.limits }),
    ...(options.source !== undefined && { source: options.source }),
  });
  // Strict, the parse's warnings count as errors too, as compile counts them.
  const parseDiagnostics = options.strict === true ? parsed.diagnostics.map(asStrict) : parsed.diagnostics;
  if (!parsed.document) return { ok: false, diagnostics: parseDiagnostics, document: null };
  // One registry for both (a registry from definitions compiles every schema).
  const tools = options.tools && ToolRegistry.from(options.tools);
  if (tools) dropStrictNulls(parsed.document.calls, tools);
  const compiled = compile(parsed.document, { ...options, ...(tools && { tools }) });
  if (parseDiagnostics.length === 0) return compiled;
  const diagnostics = [...parseDiagnostics, ...compiled.diagnostics].sort(compareDiagnostics);
  if (hasErrors(parseDiagnostics)) return { ok: false, diagnostics, document: compiled.document };
  return { ...compiled, diagnostics };
}
