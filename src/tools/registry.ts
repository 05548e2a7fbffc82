/** The tools a plan may call, checked once and with their schemas compiled once. */
import { ToolDefinitionError } from '../errors.js';
import { type SchemaCompiler as Compiler, SchemaCompiler, type SchemaValidate } from './schema-validator.js';
import type { JsonSchema, Tool } from './tool.js';

export interface RegisteredTool {
  readonly tool: Tool;
  /** Validator for `inputSchema`, or null when the tool has none. */
  readonly validateInput: SchemaValidate | null;
  /** Validator for `outputSchema`, or null when the tool has none. */
  readonly validateOutput: SchemaValidate | null;
}

export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();

  /**
   * @throws {ToolDefinitionError} listing every bad definition: a missing or duplicate name,
   *   a schema that does not compile, a flag of the wrong type.
   */
  constructor(tools: Iterable<Tool>) {
    const compiler: Compiler = new SchemaCompiler();
    const problems: string[] = [];
    let index = 0;
    for (const tool of tools) {
      const where = `tool ${index++}`;
      const found = checkDefinition(tool, where);
      if (found.length > 0) {
        problems.push(...found);
        continue;
      }
      if (this.#tools.has(tool.name)) {
        problems.push(`${where}: the name '${tool.name}' is used by another tool already`);
        continue;
      }
      const validateInput = compileSchema(compiler, tool, 'inputSchema', problems);
      const validateOutput = compileSchema(compiler, tool, 'outputSchema', problems);
      this.#tools.set(tool.name, { tool, validateInput, validateOutput });
    }
    if (problems.length > 0) throw new ToolDefinitionError(problems);
  }

  /** A registry as is, or a new one from definitions. */
  static from(tools: ToolRegistry | Iterable<Tool>): ToolRegistry {
    return tools instanceof ToolRegistry ? tools : new ToolRegistry(tools);
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  tools(): Tool[] {
    return [...this.#tools.values()].map((r) => r.tool);
  }

  get size(): number {
    return this.#tools.size;
  }
}

const BOOLEAN_FLAGS = ['latent', 'needsApproval', 'errorBranch', 'annotationsTrusted'] as const;

function checkDefinition(tool: Tool, where: string): string[] {
  if (tool === null || typeof tool !== 'object')
    return [`${where}: a tool must be an object, not ${tool === null ? 'null' : typeof tool}`];
  const problems: string[] = [];
  if (typeof tool.name !== 'string' || tool.name === '') {
    return [`${where}: "name" must be a non-empty string`];
  }
  const named = `tool '${tool.name}'`;
  for (const flag of BOOLEAN_FLAGS) {
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean')
      problems.push(`${named}: "${flag}" must be a boolean`);
  }
  for (const key of ['timeoutMs', 'estimatedMs'] as const) {
    const v = tool[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      problems.push(`${named}: "${key}" must be a number >= 0`);
  }
  const retries = tool.retries;
  if (retries !== undefined) {
    const limit =
      typeof retries === 'number'
        ? retries
        : retries && typeof retries === 'object'
          ? retries.limit
          : undefined;
    if (!(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0)) {
      problems.push(`${named}: "retries" must be a whole number >= 0 or {"limit": n, ...}`);
    }
  }
  if (tool.execute !== undefined && typeof tool.execute !== 'function')
    problems.push(`${named}: "execute" must be a function`);
  if (tool.annotations !== undefined && (tool.annotations === null || typeof tool.annotations !== 'object')) {
    problems.push(`${named}: "annotations" must be an object`);
  }
  return problems;
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
  try {
    return compiler.compile(schema);
  } catch (e) {
    problems.push(`tool '${tool.name}': "${key}" is not a valid JSON Schema: ${(e as Error).message}`);
    return null;
  }
}
