/**
 * Allow, ask and deny rules on tool names, and a mode (modeled on Claude Code's permission
 * modes). One precedence, first match wins:
 *
 * 1. a deny rule matches                 -> deny (every mode, bypassPermissions included)
 * 2. a plan tool                         -> allow (no mode blocks them; ask/allow rules do not apply)
 * 3. mode bypassPermissions              -> allow
 * 4. mode plan, and the tool is mutating -> deny (judged on the definition presented: ToolClassifier)
 * 5. an ask rule matches                 -> ask (dontAsk: deny)
 * 6. an allow rule matches               -> allow
 * 7. the tool is read-only               -> allow
 * 8. mode acceptEdits, an edit tool      -> allow
 * 9. anything else                       -> ask (dontAsk: deny)
 */
import type { Tool } from '../../tools/tool.js';
import { describeValue } from '../../language/describe-value.js';
import { compileGlobs, firstMatch, type Glob } from './glob.js';
import type { PermissionChecker, PermissionDecision } from './permission.js';
import {
  checkPresented,
  planModeDenialReason,
  ToolClassifier,
  type ToolClassifierOptions,
} from './tool-classifier.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

export const PERMISSION_MODES = ['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk'] as const;
/**
 * - `default`: unlisted tools that are not read-only are asked about.
 * - `plan`: mutating tools are denied (read-only analysis only), allow rules included.
 * - `acceptEdits`: like default, and edit tools (the `edits` option) are allowed.
 * - `bypassPermissions`: everything not denied by a rule is allowed.
 * - `dontAsk`: like default, but every ask becomes a deny (nobody is there to answer).
 */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionPolicyOptions extends ToolClassifierOptions {
  /**
   * Tool-name patterns (`*`, `?`) to allow without asking.
   * @default []
   */
  readonly allow?: readonly string[];
  /**
   * Tool-name patterns to always ask about (before allow rules).
   * @default []
   */
  readonly ask?: readonly string[];
  /**
   * Tool-name patterns to refuse. Deny wins over everything, every mode included.
   * @default []
   */
  readonly deny?: readonly string[];
  /**
   * How tools no rule decides are treated; can be changed later through `policy.mode`.
   * @default 'default'
   */
  readonly mode?: PermissionMode;
}

/** mode and the name lists have their own checks; the classifier checks the tool options. */
const PERMISSION_POLICY_OPTIONS: OptionSpec<PermissionPolicyOptions> = {
  allow: 'any',
  ask: 'any',
  deny: 'any',
  mode: 'any',
  tools: 'any',
  readOnly: 'any',
  edits: 'any',
  trustAnnotations: 'any',
};

export class PermissionPolicy implements PermissionChecker {
  /** The read-only, edit and plan-tool classification the modes use. */
  readonly classifier: ToolClassifier;
  readonly #allow: readonly Glob[];
  readonly #ask: readonly Glob[];
  readonly #deny: readonly Glob[];
  #mode: PermissionMode = 'default';

  /** @throws {TypeError} naming the bad option value. */
  constructor(options: PermissionPolicyOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PermissionPolicy: options must be an object, not ${describeValue(options)}`);
    }
    checkOptions('PermissionPolicy', options, PERMISSION_POLICY_OPTIONS);
    this.#allow = compileGlobs('PermissionPolicy: allow', options.allow);
    this.#ask = compileGlobs('PermissionPolicy: ask', options.ask);
    this.#deny = compileGlobs('PermissionPolicy: deny', options.deny);
    if (options.mode !== undefined) this.mode = options.mode;
    this.classifier = new ToolClassifier(options, 'PermissionPolicy');
  }

  get mode(): PermissionMode {
    return this.#mode;
  }

  /** Switches the mode; the next check uses it. @throws {TypeError} for an unknown mode. */
  set mode(mode: PermissionMode) {
    if (!PERMISSION_MODES.includes(mode)) {
      throw new TypeError(
        `PermissionPolicy: mode must be one of ${PERMISSION_MODES.join(', ')}, not ${describeValue(mode)}`,
      );
    }
    this.#mode = mode;
  }

  /**
   * Rules match the name; read-only status and plan tools are judged on `definition` too, when
   * given (see ToolClassifier): pass the definition that would run. `args` is accepted for the
   * common interface.
   * @throws {TypeError} for a bad name, or a definition that is not a tool of that name.
   */
  check(toolName: string, _args?: Readonly<Record<string, unknown>>, definition?: Tool): PermissionDecision {
    if (typeof toolName !== 'string' || toolName === '') {
      throw new TypeError(
        `PermissionPolicy.check: the tool name must be a non-empty string, not ${describeValue(toolName)}`,
      );
    }
    checkPresented('PermissionPolicy.check', toolName, definition);
    const mode = this.#mode;
    const tools = this.classifier;
    const denied = firstMatch(this.#deny, toolName);
    if (denied)
      return rule('deny', `deny rule '${denied.pattern}' matches '${toolName}'`, denied, 'deny-rule');
    if (tools.isPlanTool(toolName, definition)) {
      return { behavior: 'allow', reason: `'${toolName}' is a plan tool, which no mode blocks` };
    }
    if (mode === 'bypassPermissions') {
      return { behavior: 'allow', reason: `bypassPermissions mode allows '${toolName}'` };
    }
    if (mode === 'plan' && tools.isMutating(toolName, definition)) {
      return { behavior: 'deny', reason: planModeDenialReason(toolName), cause: 'plan-mode' };
    }
    const asked = firstMatch(this.#ask, toolName);
    if (asked) {
      return mode === 'dontAsk'
        ? rule(
            'deny',
            `dontAsk mode denies '${toolName}', which ask rule '${asked.pattern}' would ask about`,
            asked,
            'mode',
          )
        : rule('ask', `ask rule '${asked.pattern}' matches '${toolName}'`, asked);
    }
    const allowed = firstMatch(this.#allow, toolName);
    if (allowed) return rule('allow', `allow rule '${allowed.pattern}' matches '${toolName}'`, allowed);
    if (tools.isReadOnly(toolName, definition))
      return { behavior: 'allow', reason: `'${toolName}' is read-only` };
    if (mode === 'acceptEdits' && tools.isEdit(toolName)) {
      return { behavior: 'allow', reason: `acceptEdits mode allows edit tool '${toolName}'` };
    }
    return mode === 'dontAsk'
      ? { behavior: 'deny', reason: `dontAsk mode denies '${toolName}', which no rule allows`, cause: 'mode' }
      : { behavior: 'ask', reason: `no rule allows '${toolName}' and it is not read-only` };
  }
}

function rule(
  behavior: PermissionDecision['behavior'],
  reason: string,
  glob: Glob,
  cause?: PermissionDecision['cause'],
): PermissionDecision {
  return { behavior, reason, rule: glob.pattern, ...(cause && { cause }) };
}
