/** Checks of one call against the tools and the state schema. */
import { error, type DiagnosticSink } from '../../language/diagnostics.js';
import type { JsonObject, ExecutionMode } from '../../language/document.js';
import { formatPath } from '../../language/paths.js';
import { joinPointer } from '../../language/pointer.js';
import type { RegisteredTool, ToolRegistry } from '../../tools/registry.js';
import { checkLiteralArguments } from './check-arguments.js';
import { nearest } from '../nearest.js';
import { CallSpec } from '../read/index.js';
import { checkStatePath } from '../state-schema.js';

/** A stand-in for a call that is not even an object, so indices stay aligned. */
export function placeholder(index: number, callsPointer: string): CallSpec {
  return new CallSpec(index, undefined, null, callsPointer, {}, null, 0, 0, [], null, false, undefined);
}

/** Checks the call's tool and literal arguments; returns the tool, when it is known. */
export function checkTool(
  spec: CallSpec,
  tools: ToolRegistry,
  mode: ExecutionMode,
  pending: DiagnosticSink,
): RegisteredTool | undefined {
  const registered = tools.get(spec.tool!);
  if (!registered) {
    // No "did you mean" for a diagnostic that will not be kept: a plan of 100k calls to unknown
    // tools would otherwise compare every name with every tool.
    const names = tools.names();
    const near = pending.full ? undefined : nearest(spec.tool!, names, pending.hints);
    pending.push(
      error('E_UNKNOWN_TOOL', joinPointer(spec.pointer, '_tool'), `unknown tool "${spec.tool}"`, {
        call: spec.id,
        hint: near
          ? `did you mean "${near}"?`
          : names.length <= 12
            ? `the tools are: ${names.join(', ')}`
            : 'check the tool name against the tools file',
      }),
    );
    return undefined;
  }
  if (registered.validateInput)
    checkLiteralArguments(spec, spec.tool!, registered.validateInput, pending, registered.defaults);
  if (mode === 'eager' && registered.tool.latent && !spec.hasOutput) {
    // Nothing would give the result: an eager plan runs without asking the model again.
    pending.push(
      error(
        'E_NO_OUTPUT',
        joinPointer(spec.pointer, '_tool'),
        `the call to latent tool "${spec.tool}" has no _output: in an eager plan the model writes a latent tool's result into its call`,
        {
          call: spec.id,
          hint: 'write the result as "_output" in the call, or make the plan lazy ("mode": "lazy") so the model is asked for it after approval',
        },
      ),
    );
  }
  if (spec.hasOutput && mode === 'eager' && !registered.tool.latent) {
    pending.push(
      error(
        'E_UNKNOWN_META',
        joinPointer(spec.pointer, '_output'),
        `_output is only for latent tools, and "${spec.tool}" is not latent`,
        {
          call: spec.id,
          atKey: true,
          hint: 'remove _output: the tool runs and produces the result itself',
        },
      ),
    );
  }
  return registered;
}

export function checkOutputAgainstSchema(spec: CallSpec, schema: JsonObject, pending: DiagnosticSink): void {
  const output = spec.outputPath!;
  let searchFrom = 0;
  for (const path of output.paths) {
    const verdict = checkStatePath(schema, path.segments);
    const text = formatPath('state', path.segments);
    const offset = Math.max(0, output.text.indexOf('†', searchFrom));
    searchFrom = offset + 1;
    if (verdict.allowed) continue;
    const segment = String(path.segments[verdict.failedAt ?? 0]);
    const near = nearest(segment, verdict.known, pending.hints);
    pending.push(
      error(
        'E_STATE_SCHEMA',
        joinPointer(spec.pointer, '_outputPath'),
        `the state schema has no place for ${text}`,
        {
          call: spec.id,
          offset,
          hint: near
            ? `did you mean "${near}"?`
            : verdict.known.length > 0
              ? `the schema declares: ${verdict.known.join(', ')}`
              : 'write to a path the state schema declares, or extend the schema',
        },
      ),
    );
  }
}
