/**
 * The one definition of which tools are read-only, which are edit tools and which are plan
 * tools. PermissionPolicy's `plan` and `acceptEdits` modes and PlanModePolicy all ask the same
 * classifier, so there are never two lists of "mutating" tools to drift apart.
 *
 * Read-only: a tool counts as read-only only when the `readOnly` allowlist names it,
 * or when its definition says `readOnlyHint: true` and that definition is trusted. By default
 * the definitions you write in code are trusted, and those an adapter made from a third
 * party's (an MCP server's: `annotationsTrusted: false`) are not; `trustAnnotations` changes
 * that. Everything else, unknown names included, is mutating.
 *
 * Trust binds to the definition object, not to its name. Each check may present the
 * definition about to run (the guard and the agent always do):
 *
 * - a definition the classifier was built with (or a guard's wrapper of one) has that
 *   definition's status;
 * - a different definition under a name the classifier knows from its `tools` is mutating,
 *   whatever it claims and even when `readOnly` names it: it is not the tool that was trusted
 *   (nor the one the user allowlisted, as far as anyone can tell);
 * - a definition under a name the classifier does not know is read-only when `readOnly` names
 *   it (the allowlist is the user's word about a name), or when it is itself trusted and says
 *   `readOnlyHint: true`: with no definition of that name to compare, the one that will run is
 *   judged on its own, by the same trust rule as the classifier's `tools`.
 *
 * A check that gives only a name means the classifier's own definition of that name (its
 * `tools` hold one definition per name): that definition's status, the allowlist for names it
 * does not know, and mutating for anything else. Callers that have the definition in hand
 * must pass it, or an impostor under a trusted name passes as the trusted tool.
 *
 * Edit tools (`edits`) are matched by name only, like allow rules: they are the user's word
 * about names, not a trust in definitions.
 */
import { trustedReadOnlyHint } from '../../tools/effects.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/tool.js';
import { workflowCalls } from '../../tools/workflow-definition.js';
import { describeValue } from '../../language/describe-value.js';
import { compileGlobs, firstMatch, type Glob } from './glob.js';
import { isGenuinePlanTool, isPlanToolName, PLAN_TOOL_NAMES } from './plan-tool-names.js';
import { originalOf, sameDefinition } from './tool-identity.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

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
   * marked `annotationsTrusted: false` (what the adapters make of an MCP server's or another
   * SDK's tools, unless you trusted them when adapting them), `false` for none (only
   * `readOnly` counts), or a function that decides per tool (it overrides
   * `annotationsTrusted`; called once per definition). Tools you define in code are your own
   * word; hints from a server you do not control are claims, not facts.
   * @default true
   */
  readonly trustAnnotations?: boolean | ((tool: Tool) => boolean);
}

const TOOL_CLASSIFIER_OPTIONS: OptionSpec<ToolClassifierOptions> = {
  tools: 'any',
  readOnly: 'any',
  edits: 'any',
  trustAnnotations: 'any',
};

export class ToolClassifier {
  readonly #readOnly: readonly Glob[];
  readonly #edits: readonly Glob[];
  /** The definitions the classifier was built with, by name: whether each is trusted read-only. */
  readonly #known = new Map<string, { readonly tool: Tool; readonly trustedReadOnly: boolean }>();
  readonly #trusts: (tool: Tool) => boolean;
  /** Definitions under names the classifier does not know, judged once each. */
  readonly #judged = new WeakMap<Tool, boolean>();
  /** The workflows among the known tools: whether every call their plans can make is read-only. */
  readonly #workflows = new Map<string, boolean>();
  /** Whether any of tools, readOnly, edits or trustAnnotations was given. */
  readonly configured: boolean;

  /** @throws {TypeError} naming the bad option value. */
  constructor(options: ToolClassifierOptions = {}, where = 'ToolClassifier') {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
    }
    // Policies hand their own options on (with keys of theirs): each checks its own.
    if (where === 'ToolClassifier') checkOptions(where, options, TOOL_CLASSIFIER_OPTIONS);
    const { tools, readOnly, edits, trustAnnotations = true } = options;
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
    // A function decides for itself; `true` still leaves out what its source marked untrusted
    // (the rule the executor's program order believes a read-only hint by, too).
    this.#trusts =
      typeof trustAnnotations === 'function'
        ? (tool) => tool.annotations?.readOnlyHint === true && trustAnnotations(tool) === true
        : (tool) => trustAnnotations && trustedReadOnlyHint(tool);
    const listed = listTools(tools, where);
    for (const tool of listed) {
      if (isPlanToolName(tool.name) && !isGenuinePlanTool(tool)) {
        throw new TypeError(
          `${where}: the tool '${tool.name}' is not the one planTools() makes; ${PLAN_TOOL_NAMES.join(', ')} are reserved for the plan tools`,
        );
      }
      this.#known.set(tool.name, { tool, trustedReadOnly: this.#trusts(tool) });
    }
    this.#judgeWorkflows(listed);
  }

  /**
   * A workflow is read-only when every tool its plan can call is, whatever its own hint or the
   * allowlist say of it: plan mode would otherwise run a mutating call hidden inside one.
   */
  #judgeWorkflows(listed: readonly Tool[]): void {
    if (!listed.some((tool) => tool.plan !== undefined)) return;
    // Definitions not bound yet are bound here (the registry compiles them) to learn their calls.
    const bound = listed.every((tool) => tool.plan === undefined || workflowCalls(tool) !== undefined)
      ? listed
      : new ToolRegistry(listed).tools();
    for (const tool of bound) {
      const calls = workflowCalls(tool);
      if (calls === undefined) continue;
      const readOnly = calls.every((name) => {
        const known = this.#known.get(name);
        return (
          (known !== undefined && known.tool.plan === undefined && known.trustedReadOnly) ||
          firstMatch(this.#readOnly, name) !== undefined
        );
      });
      this.#workflows.set(tool.name, readOnly);
    }
  }

  /**
   * Read-only: the trusted `readOnlyHint: true` of the definition the classifier knows under
   * `name`, or the `readOnly` allowlist; never a definition other than the one known under
   * that name (see the header for the rules).
   * @param definition the definition about to run, when the caller has it: pass it.
   * @throws {TypeError} for a definition that is not a tool named `name`.
   */
  isReadOnly(name: string, definition?: Tool): boolean {
    checkPresented('ToolClassifier.isReadOnly', name, definition);
    const known = this.#known.get(name);
    if (known === undefined) {
      return (
        firstMatch(this.#readOnly, name) !== undefined ||
        (definition !== undefined && this.#trustedOnItsOwn(definition))
      );
    }
    if (definition !== undefined && !sameDefinition(definition, known.tool)) return false;
    const workflow = this.#workflows.get(name);
    if (workflow !== undefined) return workflow;
    return known.trustedReadOnly || firstMatch(this.#readOnly, name) !== undefined;
  }

  /** A definition under a name the classifier does not know: its own trusted hint decides. */
  #trustedOnItsOwn(definition: Tool): boolean {
    // A guard's wrapper is judged as its original, so the function sees one definition once.
    const original = originalOf(definition);
    // A workflow's calls are what decides, and the classifier knows none of them.
    if (original.plan !== undefined) return false;
    let trusted = this.#judged.get(original);
    if (trusted === undefined) {
      trusted = this.#trusts(original);
      this.#judged.set(original, trusted);
    }
    return trusted;
  }

  /** Not read-only (see isReadOnly). */
  isMutating(name: string, definition?: Tool): boolean {
    return !this.isReadOnly(name, definition);
  }

  /** An edit tool, which `acceptEdits` allows: by name only (the user's patterns). */
  isEdit(name: string): boolean {
    return firstMatch(this.#edits, name) !== undefined;
  }

  /**
   * One of enter_plan_mode, exit_plan_mode, plan_write, todo_write: no mode blocks them. A
   * presented definition must be one `planTools()` made; a look-alike is not a plan tool.
   */
  isPlanTool(name: string, definition?: Tool): boolean {
    return isPlanToolName(name) && (definition === undefined || isGenuinePlanTool(definition));
  }
}

/**
 * Checks the definition a caller presents with a tool name.
 * @throws {TypeError} naming where, when it is not an object or is named otherwise.
 */
export function checkPresented(where: string, name: string, definition: Tool | undefined): void {
  if (definition === undefined) return;
  if (definition === null || typeof definition !== 'object') {
    throw new TypeError(`${where}: the definition must be a tool object, not ${describeValue(definition)}`);
  }
  if (definition.name !== name) {
    throw new TypeError(
      `${where}: the definition presented for '${name}' is named ${describeValue(definition.name)}; present the definition that will run under that name`,
    );
  }
}

/**
 * Why plan mode refuses a tool. What to do instead depends on the tools the model is offered,
 * so the guard adds that advice (see denial.ts), not the policy.
 */
export function planModeDenialReason(name: string): string {
  return `Plan mode denies mutating tool '${name}'`;
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
