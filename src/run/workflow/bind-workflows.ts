/**
 * The registry's workflow binder (installed by this folder's index.ts): when a ToolRegistry is
 * built, each tool with a `plan` is parsed, ordered after the workflows it calls (chains that
 * reach back are problems), compiled against the registry and its `inputSchema`, its `output`
 * read and typed against the compiled plan, and put back in the registry with an `execute`
 * that runs the plan and, when it declares none, the `outputSchema` its output type gives, so
 * that callers' reads of its result are typed. Every problem names its workflow, and a
 * mistake in the plan its line and column in the file the plan came from.
 */
import { outputType, readOutputTemplate, schemaCompat } from '../../compile/check/index.js';
import { compile } from '../../compile/compile.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { PlanDocument } from '../../language/document.js';
import { parsePlan } from '../../language/parse/index.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { JsonSchema, PlanOrigin, Tool } from '../../tools/tool.js';
import { workflowCallsField } from '../../tools/workflow-definition.js';
import { workflowChains } from './workflow-chains.js';
import { workflowExecute } from './workflow-execute.js';
import { workflowPlanField } from '../workflow-plan.js';
// The dry run's view of a workflow (plan, output template, source text): see workflow-plan.ts.
import { workflowPlanField as workflowSourceField } from './workflow-plan.js';
import { rememberWorkflowPlan } from '../../compile/workflow-plans.js';

/** Most of a workflow's plan diagnostics listed; the rest are counted. */
const MAX_LISTED = 20;

export function bindWorkflows(registry: ToolRegistry, names: readonly string[]): string[] {
  const problems: string[] = [];
  const documents = new Map<string, PlanDocument>();
  const calls = new Map<string, readonly string[]>();
  for (const name of names) {
    const tool = registry.get(name)!.tool;
    const origin = tool.planOrigin;
    const parsed = parsePlan(tool.plan, { source: origin?.file ?? `workflow '${name}'` });
    if (parsed.document === null) {
      problems.push(...planProblems(name, tool, parsed.diagnostics));
      calls.set(name, []);
      continue;
    }
    documents.set(name, parsed.document);
    calls.set(name, toolNames(parsed.document.calls));
  }
  const chains = workflowChains(calls);
  problems.push(...chains.problems);
  for (const name of chains.order) {
    const document = documents.get(name);
    if (document === undefined) continue;
    const tool = registry.get(name)!.tool;
    const template = readOutputTemplate(tool.output);
    if ('problem' in template) {
      problems.push(`workflow '${name}': ${template.problem}`);
      continue;
    }
    const inputSchema = objectSchema(tool.inputSchema);
    const compiled = compile(document, { tools: registry, ...(inputSchema && { inputSchema }) });
    if (!compiled.ok) {
      problems.push(...planProblems(name, tool, compiled.diagnostics));
      continue;
    }
    const plan = compiled.plan!;
    const type = outputType(template, plan, registry, inputSchema);
    for (const problem of type.problems) problems.push(`workflow '${name}': ${problem}`);
    if (type.problems.length > 0) continue;
    const declared = tool.outputSchema;
    if (declared !== undefined && schemaCompat(type.schema, declared) === 'never') {
      problems.push(
        `workflow '${name}': its output (${JSON.stringify(type.schema)}) can never fit its declared outputSchema; fix "output" or "outputSchema"`,
      );
      continue;
    }
    const reached = chains.reaches.get(name)!;
    const bound: Tool = Object.freeze({
      ...tool,
      execute: workflowExecute({ name, plan, output: template, registry }),
      outputSchema: declared ?? type.schema,
      ...workflowCallsField([...reached], plan),
      ...workflowPlanField(plan),
      ...workflowSourceField({ plan, output: template, source: document.source }),
    });
    let effects = false;
    for (const called of reached) if (registry.get(called)?.programOrder === true) effects = true;
    rememberWorkflowPlan(bound, plan);
    registry.bindWorkflow(name, bound, effects);
  }
  return problems;
}

/** The tool names a plan's calls give (`_tool`), in order, each once. */
function toolNames(rawCalls: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const call of rawCalls) {
    if (call === null || typeof call !== 'object') continue;
    const tool = (call as { _tool?: unknown })._tool;
    if (typeof tool === 'string') names.add(tool);
  }
  return [...names];
}

function objectSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  return schema !== null && typeof schema === 'object' ? schema : undefined;
}

/** A workflow's plan errors, each with its line and column in the file the plan came from. */
function planProblems(name: string, tool: Tool, diagnostics: readonly Diagnostic[]): string[] {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const listed = errors.slice(0, MAX_LISTED).map((d) => {
    const hint = d.hint ? ` (${d.hint})` : '';
    return `workflow '${name}': ${where(tool, d)}: ${d.code} ${d.message}${hint}`;
  });
  if (errors.length > MAX_LISTED)
    listed.push(`workflow '${name}': and ${errors.length - MAX_LISTED} more errors in its plan`);
  return listed;
}

/** `file:line:column` for a plan given as text; the pointer for one given as a value. */
function where(tool: Tool, d: Diagnostic): string {
  if (typeof tool.plan !== 'string') return `its plan at ${d.pointer === '' ? '/' : d.pointer}`;
  const origin: PlanOrigin = tool.planOrigin ?? { file: 'its plan' };
  const startLine = origin.line ?? 1;
  const startColumn = origin.column ?? 1;
  const line = startLine + d.line - 1;
  const column = d.line === 1 ? startColumn + d.column - 1 : d.column;
  return `${origin.file}:${line}:${column}`;
}
