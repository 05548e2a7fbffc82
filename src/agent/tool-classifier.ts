/**
 * The one definition of which tools are read-only, which are edit tools and which are plan
 * tools. PermissionPolicy's `plan` and `acceptEdits` modes and PlanModePolicy all ask the same
 * classifier, so there are never two lists of "mutating" tools to drift apart.
 *
 * Read-only (SPEC 8): a tool counts as read-only only when the `readOnly` allowlist names it,
 * or when its definition says `readOnlyHint: true` and that definition is trusted
 * (`trustAnnotations`). Everything else, unknown names included, is mutating.
 */
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import { describeValue } from './describe-value.js';
import { compileGlobs, firstMatch, type Glob } from './glob.js';
import { isGenuinePlanTool, isPlanToolName, PLAN_TOOL_NAMES } from './plan-tool-names.js';

export interface ToolClassifierOptions {
  /**
   * The tool definitions; their `annotations.readOnlyHint` marks read-only tools when
   * `trustAnnotations` allows. A tool named like a plan tool must come from `planTools()`.
   * @default []
   */
  readonly tools?: Iterable<Tool> | ToolRegistry;
  /**
   * Tool-name patterns (`*`, `?`) that are read-only whatever their definitions say.
   * @default []
   */
  readonly readOnly?: readonly string[];
  /**
   * Tool-name patterns of edit tools: what `acceptEdits` mode allows without asking (file
   * edits, writes). MCP has no "edit" annotation, so edit tools are named, not guessed.
   * @default []
   */
  readonly edits?: readonly string[];
  /**
   * Whether a definition's `readOnlyHint: true` is believed: `true` for every tool but those
   * marked `annotationsTrusted: false` (an MCP server's, unless you trusted them when adapting
   * them), `false` for none (only `readOnly` counts), or a function that decides per tool. Hints from a server you do not control are claims, not
   * facts, so nothing is trusted unless you say so.
   * @default false
   */
  readonly trustAnnotations?: boolean | ((tool: Tool) => boolean);
}

export class ToolClassifier {
  readonly #readOnly: readonly Glob[];
  readonly #edits: readonly Glob[];
  readonly #hintedReadOnly = new Set<string>();
  /** Whether any of tools, readOnly, edits or trustAnnotations was given. */
  readonly configured: boolean;

  /** @throws {TypeError} naming the bad option value. */
  constructor(options: ToolClassifierOptions = {}, where = 'ToolClassifier') {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
    }
    const { tools, readOnly, edits, trustAnnotations = false } = options;
    this.#readOnly = compileGlobs(`${where}: readOnly`, readOnly);
    this.#edits = compileGlobs(`${where}: edits`, edits);
    if (typeof trustAnnotations !== 'boolean' && typeof trustAnnotations !== 'function') {
      throw new TypeError(
        `${where}: trustAnnotations must be a boolean or a function, not ${describeValue(trustAnnotations)}`,
      );
    }
    this.configured =
      tools !== undefined ||
      readOnly !== undefined ||
      edits !== undefined ||
      options.trustAnnotations !== undefined;
    for (const tool of listTools(tools, where)) {
      if (isPlanToolName(tool.name) && !isGenuinePlanTool(tool)) {
        throw new TypeError(
          `${where}: the tool '${tool.name}' is not the one planTools() makes; ${PLAN_TOOL_NAMES.join(', ')} are reserved for the plan tools`,
        );
      }
      // A function decides for itself; `true` still leaves out what its source marked untrusted.
      const trusted =
        typeof trustAnnotations === 'function'
          ? trustAnnotations(tool) === true
          : trustAnnotations && tool.annotationsTrusted !== false;
      if (trusted && tool.annotations?.readOnlyHint === true) this.#hintedReadOnly.add(tool.name);
    }
  }

  /** Read-only: allowlisted, or a trusted `readOnlyHint: true`. Unknown names are mutating. */
  isReadOnly(name: string): boolean {
    return this.#hintedReadOnly.has(name) || firstMatch(this.#readOnly, name) !== undefined;
  }

  isMutating(name: string): boolean {
    return !this.isReadOnly(name);
  }

  /** An edit tool, which `acceptEdits` allows. */
  isEdit(name: string): boolean {
    return firstMatch(this.#edits, name) !== undefined;
  }

  /** One of enter_plan_mode, exit_plan_mode, plan_write, todo_write: no mode blocks them. */
  isPlanTool(name: string): boolean {
    return isPlanToolName(name);
  }
}

/** Why plan mode refuses a tool, and what the model should do instead. */
export function planModeDenialReason(name: string): string {
  return `Plan mode denies mutating tool '${name}'; describe the change in the plan (plan_write) and call exit_plan_mode to ask for approval`;
}

function listTools(tools: Iterable<Tool> | ToolRegistry | undefined, where: string): Tool[] {
  if (tools === undefined) return [];
  if (tools instanceof ToolRegistry) return tools.tools();
  if (
    tools === null ||
    typeof tools !== 'object' ||
    typeof (tools as Iterable<Tool>)[Symbol.iterator] !== 'function'
  ) {
    throw new TypeError(`${where}: tools must be an array of tool definitions, not ${describeValue(tools)}`);
  }
  const list = [...tools];
  const seen = new Set<string>();
  list.forEach((tool, index) => {
    if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string' || tool.name === '') {
      throw new TypeError(
        `${where}: tools[${index}] must be a tool definition with a name, not ${describeValue(tool)}`,
      );
    }
    if (seen.has(tool.name)) throw new TypeError(`${where}: two tools are named '${tool.name}'`);
    seen.add(tool.name);
  });
  return list;
}
