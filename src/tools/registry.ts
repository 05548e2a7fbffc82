/** The tools a plan may call, checked once and with their schemas compiled once. */
import { ToolDefinitionError } from '../errors.js';
import { checkJson } from '../language/json/index.js';
import { DEFAULT_LIMITS } from '../language/limits.js';
import { showValue, thrownMessage } from './safe-describe.js';
import {
  type SchemaCompiler as Compiler,
  describeUnsupportedPattern,
  PatternBudgetError,
  SchemaCompiler,
  SchemaPatternError,
  type SchemaValidate,
} from './schema-validator.js';
import { followsProgramOrder } from './effects.js';
import { ArgumentDefaults } from './schema-defaults.js';
import type { JsonSchema, Tool } from './tool.js';
import { delayProblem, retriesProblems } from './tool-values.js';
import { quotaProblems } from './quota.js';
import { isWorkflowDefinition, workflowCalls, workflowShapeProblems } from './workflow-definition.js';

/**
 * Compiles and binds a registry's workflows (tools with `plan`): given the registry, once
 * every definition is in it, and the workflows' names in definition order; returns the
 * problems found (each naming its workflow). run/workflow/ installs it: a workflow runs
 * through the executor, which this folder cannot import.
 */
export type WorkflowBinder = (registry: ToolRegistry, workflows: readonly string[]) => readonly string[];

let workflowBinder: WorkflowBinder | undefined;

/** @internal Installs the binder that compiles workflows (run/workflow/ does, once). */
export function installWorkflowBinder(binder: WorkflowBinder): void {
  workflowBinder = binder;
}

export interface RegisteredTool {
  readonly tool: Tool;
  /** Validator for `inputSchema`, or null when the tool has none. */
  readonly validateInput: SchemaValidate | null;
  /** Validator for `outputSchema`, or null when the tool has none. */
  readonly validateOutput: SchemaValidate | null;
  /** Its calls follow program order: it declares effects and is not `independent` (see effects.ts). */
  readonly programOrder: boolean;
  /** The `default`s its `inputSchema` fills into arguments, or null when it declares none (see schema-defaults.ts). */
  readonly defaults: ArgumentDefaults | null;
}

export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  #programOrderKey = '';

  /**
   * @throws {ToolDefinitionError} listing every bad definition: a missing or duplicate name,
   *   a schema that does not compile, a flag of the wrong type.
   */
  constructor(tools: Iterable<Tool>) {
    const compiler: Compiler = new SchemaCompiler();
    const problems: string[] = [];
    const workflows: string[] = [];
    let index = 0;
    for (const tool of listTools(tools)) {
      const where = `tool ${index++}`;
      const { name, problems: found } = checkDefinition(tool, where);
      if (found.length > 0 || name === undefined) {
        problems.push(...found);
        continue;
      }
      if (this.#tools.has(name)) {
        problems.push(`${where}: the name '${name}' is used by another tool already`);
        continue;
      }
      const validateInput = compileSchema(compiler, tool, 'inputSchema', problems);
      const validateOutput = compileSchema(compiler, tool, 'outputSchema', problems);
      const order = readsProgramOrder(tool, problems);
      if (order !== null) this.#programOrderKey += `${JSON.stringify(name)}:${order},`;
      const defaults = validateInput === null ? null : ArgumentDefaults.of(tool.inputSchema);
      this.#tools.set(name, {
        tool,
        validateInput,
        validateOutput,
        programOrder: order === 'effect',
        defaults,
      });
      if (isWorkflowDefinition(tool)) workflows.push(name);
    }
    if (problems.length === 0 && workflows.length > 0) {
      if (workflowBinder === undefined)
        problems.push(
          `tool '${workflows[0]}' is a workflow, and workflows run through planmode's executor: import it from 'planmode'`,
        );
      else problems.push(...workflowBinder(this, workflows));
    }
    if (problems.length > 0) throw new ToolDefinitionError(problems);
  }

  /**
   * @internal Puts a workflow's bound definition (the binder's: with its `execute` and its
   * output type) in place of the one it was given, while the registry is being built.
   * `effects`: a tool its plan can call follows program order, so its own calls do too
   * (unless it is `independent`).
   */
  bindWorkflow(name: string, tool: Tool, effects: boolean): void {
    const registered = this.#tools.get(name);
    if (registered === undefined) throw new TypeError(`bindWorkflow: no tool '${name}'`);
    const programOrder = registered.programOrder || (effects && tool.independent !== true);
    if (programOrder && !registered.programOrder) this.#programOrderKey += `${JSON.stringify(name)}:effect,`;
    this.#tools.set(name, { ...registered, tool, programOrder });
  }

  /**
   * What the registry says of program order, as one string: the tools whose calls follow it
   * and the `independent` ones, in definition order; `''` for a registry of plain tools. Two
   * registries with the same key order a plan's calls alike.
   */
  get programOrderKey(): string {
    return this.#programOrderKey;
  }

  /** A registry as is, or a new one from definitions. */
  static from(tools: ToolRegistry | Iterable<Tool>): ToolRegistry {
    return tools instanceof ToolRegistry ? tools : new ToolRegistry(tools);
  }

  /**
   * @internal A copy of this registry with some definitions replaced (the limiter's wrapped
   * ones), keeping every validator: nothing is checked or compiled again.
   */
  withTools(replaced: ReadonlyMap<string, Tool>): ToolRegistry {
    const copy = new ToolRegistry([]);
    for (const [name, registered] of this.#tools) {
      const tool = replaced.get(name);
      copy.#tools.set(name, tool === undefined ? registered : { ...registered, tool });
    }
    copy.#programOrderKey = this.#programOrderKey;
    return copy;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The tool names, in definition order (one frozen list, made on first use). */
  names(): readonly string[] {
    this.#names ??= Object.freeze([...this.#tools.keys()]);
    return this.#names;
  }

  #names: readonly string[] | undefined;

  tools(): Tool[] {
    return [...this.#tools.values()].map((r) => r.tool);
  }

  get size(): number {
    return this.#tools.size;
  }
}

const BOOLEAN_FLAGS = [
  'latent',
  'needsApproval',
  'errorBranch',
  'branchJson',
  'annotationsTrusted',
  'repeatable',
  'independent',
] as const;

/** What a field read gave when its getter (or a Proxy trap) threw: already a problem. */
const THREW: unique symbol = Symbol('threw');

/** The definitions, read once: iterating a hostile iterable (a Proxy) may throw. */
function listTools(tools: Iterable<Tool>): Tool[] {
  try {
    return [...tools];
  } catch (e) {
    throw new ToolDefinitionError([`reading the list of tools threw: ${thrownMessage(e)}`]);
  }
}

/**
 * Every field is read inside try/catch: a definition is the tools module's (or an MCP
 * adapter's) object, and a getter or Proxy trap that throws must become a problem, not a crash.
 * The schemas are read here too, for that reason, though they are compiled later.
 */
function checkDefinition(tool: Tool, where: string): { name?: string; problems: string[] } {
  if (tool === null || typeof tool !== 'object')
    return { problems: [`${where}: a tool must be an object, not ${showValue(tool)}`] };
  const problems: string[] = [];
  let named = where;
  const read = (key: keyof Tool): unknown => {
    try {
      return tool[key];
    } catch (e) {
      problems.push(`${named}: reading "${key}" threw: ${thrownMessage(e)}`);
      return THREW;
    }
  };
  const name = read('name');
  if (name === THREW) return { problems };
  if (typeof name !== 'string' || name === '')
    return { problems: [`${where}: "name" must be a non-empty string, not ${showValue(name)}`] };
  named = `tool '${name}'`;
  let latent: unknown;
  for (const flag of BOOLEAN_FLAGS) {
    const value = read(flag);
    if (flag === 'latent') latent = value;
    if (value !== THREW && value !== undefined && typeof value !== 'boolean')
      problems.push(`${named}: "${flag}" must be a boolean, not ${showValue(value)}`);
  }
  for (const key of ['timeoutMs', 'estimatedMs'] as const) {
    const value = read(key);
    const problem = value === THREW || value === undefined ? undefined : delayProblem(value, key);
    if (problem !== undefined) problems.push(`${named}: ${problem}`);
  }
  const concurrency = read('concurrency');
  const rateLimit = read('rateLimit');
  if (concurrency !== THREW && rateLimit !== THREW)
    for (const problem of quotaProblems(concurrency, rateLimit)) problems.push(`${named}: ${problem}`);
  const group = read('quotaGroup');
  if (group !== THREW && group !== undefined && (typeof group !== 'string' || group === ''))
    problems.push(`${named}: "quotaGroup" must be a non-empty string, not ${showValue(group)}`);
  const retries = read('retries');
  if (retries !== THREW && retries !== undefined)
    for (const problem of retriesProblems(retries)) problems.push(`${named}: ${problem}`);
  const execute = read('execute');
  if (execute !== THREW && execute !== undefined && typeof execute !== 'function')
    problems.push(`${named}: "execute" must be a function, not ${showValue(execute)}`);
  const plan = read('plan');
  const output = read('output');
  if (plan !== THREW && output !== THREW && execute !== THREW && latent !== THREW)
    // A workflow another registry bound has that registry's execute: this one binds it anew.
    for (const problem of workflowShapeProblems({
      plan,
      output,
      execute: workflowCalls(tool) === undefined ? execute : undefined,
      latent,
    }))
      problems.push(`${named}: ${problem}`);
  read('planOrigin');
  const annotations = read('annotations');
  if (
    annotations !== THREW &&
    annotations !== undefined &&
    (annotations === null || typeof annotations !== 'object')
  )
    problems.push(`${named}: "annotations" must be an object, not ${showValue(annotations)}`);
  read('description');
  read('inputSchema');
  read('outputSchema');
  return { name, problems };
}

/**
 * Where the tool's calls stand in program order: `effect` (they follow it), `independent`
 * (out of it), or null (plain). A getter that throws when read again is a problem.
 */
function readsProgramOrder(tool: Tool, problems: string[]): 'effect' | 'independent' | null {
  try {
    if (tool.independent === true) return 'independent';
    return followsProgramOrder(tool) ? 'effect' : null;
  } catch (e) {
    problems.push(`tool '${tool.name}': reading its flags and annotations threw: ${thrownMessage(e)}`);
    return null;
  }
}

function compileSchema(
  compiler: Compiler,
  tool: Tool,
  key: 'inputSchema' | 'outputSchema',
  problems: string[],
): SchemaValidate | null {
  const schema: JsonSchema | undefined = tool[key];
  if (schema === undefined) return null;
  if (
    typeof schema !== 'boolean' &&
    (schema === null || typeof schema !== 'object' || Array.isArray(schema))
  ) {
    problems.push(`tool '${tool.name}': "${key}" must be a JSON Schema object`);
    return null;
  }
  // A schema may come from an MCP server: bounded before ajv (which recurses) compiles it.
  const checked = checkJson(schema, { limits: DEFAULT_LIMITS });
  if ('problem' in checked) {
    const { problem } = checked;
    const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
    problems.push(`tool '${tool.name}': "${key}"${where} ${problem.message}`);
    return null;
  }
  try {
    return compiler.compile(schema);
  } catch (e) {
    if (e instanceof PatternBudgetError) {
      problems.push(`tool '${tool.name}': "${key}" has a ${e.message}`);
    } else if (e instanceof SchemaPatternError) {
      for (const found of e.patterns)
        problems.push(`tool '${tool.name}': "${key}" has a ${describeUnsupportedPattern(found)}`);
    } else {
      const message = e instanceof Error ? e.message : thrownMessage(e);
      problems.push(`tool '${tool.name}': "${key}" is not a valid JSON Schema: ${message}`);
    }
    return null;
  }
}
