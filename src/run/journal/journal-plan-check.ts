/**
 * Checks a journal's records against the plan about to reuse them, before anything runs: a
 * record whose fields have the right types can still name a call the plan lacks, an alternative
 * its output path does not have, or an output its tool's outputSchema refuses. A resume would
 * write such an output into the state as if the tool had returned it, so each is a problem.
 */
import type { CompiledCall, CompiledPlan } from '../../compile/types.js';
import type { ExecutionMode } from '../../language/document.js';
import { showValue } from '../../tools/safe-describe.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { REPLACED_FIELDS } from './journal-format.js';
import { describeSchemaErrors } from '../schema-errors.js';
import type { RunEvent } from '../types.js';

type CallEnd = Extract<RunEvent, { readonly type: 'call:end' }>;

export interface PlanRecordCheckOptions {
  readonly plan: CompiledPlan;
  /** The tools the run executes with: their outputSchemas judge journaled outputs. */
  readonly tools: ToolRegistry;
  /** The mode the run executes in. */
  readonly mode: ExecutionMode;
}

/** Says what is wrong with a record for this run, or undefined when the resume may trust it. */
export type RecordCheck = (record: RunEvent) => string | undefined;

/**
 * A check for `Journal.open`'s `checkRecord`: every record that names a call must name one of
 * the plan's, with its tool; a `call:end` must choose an alternative the call's `_outputPath`
 * has (a succeeded one never the error alternative), be `handled` only where the call declares
 * an error alternative, with an error object written there, and, when a resume would reuse it,
 * carry an output that its tool's outputSchema accepts.
 */
export function planRecordCheck(options: PlanRecordCheckOptions): RecordCheck {
  const { plan, tools, mode } = options;
  return (record) => {
    if (!('call' in record) || record.call === undefined) return undefined;
    const index = plan.indexOf(record.call);
    const call = index === undefined ? undefined : plan.calls[index];
    if (call === undefined) {
      return `a ${record.type} for call ${showValue(record.call)}, which this plan does not have`;
    }
    if ('tool' in record && record.tool !== call.tool) {
      return `a ${record.type} for call ${showValue(call.id)} names tool ${showValue(record.tool)}, but the plan's call calls ${showValue(call.tool)}`;
    }
    if (record.type !== 'call:end') return undefined;
    return checkCallEnd(record, call, { tools, mode });
  };
}

function checkCallEnd(
  record: CallEnd,
  call: CompiledCall,
  { tools, mode }: Pick<PlanRecordCheckOptions, 'tools' | 'mode'>,
): string | undefined {
  const id = showValue(call.id);
  const output = call.outputPath;
  const alternatives = output?.op === '||' ? output.paths.length : 0;
  const path = output ? showValue(output.text) : 'no _outputPath';
  if (record.branch !== null && record.branch >= alternatives) {
    return alternatives === 0
      ? `a call:end for call ${id} chooses alternative ${record.branch}, but its output path (${path}) has no alternatives: "branch" must be null`
      : `a call:end for call ${id} chooses alternative ${record.branch}, but its output path ${path} has ${alternatives}`;
  }
  const registered = tools.get(call.tool);
  const errorAlternative = call.errorAlternative;
  if (record.handled) {
    if (record.status !== 'failed') {
      return `a call:end for call ${id} is "handled" but ${record.status}: only a failed call is handled`;
    }
    if (errorAlternative === null) {
      return `a call:end for call ${id} is "handled", but the call declares no error alternative (its _onError, or its tool's errorBranch: true, on a "||" output path of 2 or more alternatives), so a throw of its tool fails it`;
    }
    if (record.branch !== errorAlternative) {
      return `a handled call:end for call ${id} must choose the error alternative (${errorAlternative}), where the error is written, not ${String(record.branch)}`;
    }
    if (!outputReplaced(record) && !isCallError(record.output)) {
      return `a handled call:end for call ${id} must carry the error it wrote as "output": {"message": string, "code"?: string}`;
    }
  } else if (
    record.status === 'succeeded' &&
    errorAlternative !== null &&
    record.branch === errorAlternative
  ) {
    return `a succeeded call:end for call ${id} chooses its error alternative (${errorAlternative}), which holds only errors`;
  }
  const reused = record.status === 'succeeded' || record.handled;
  if (!reused || outputReplaced(record)) return undefined;
  if (output && record.output === undefined) {
    return `a ${record.status} call:end for call ${id} must carry the "output" its output path ${path} is written from`;
  }
  if (alternatives > 0 && record.branch === null) {
    return `a ${record.status} call:end for call ${id} must name the alternative of ${path} it wrote in "branch"`;
  }
  // A handled call's output is its error, not the tool's result; an eager call's `_output` is
  // the plan's own, and a resume never takes it from the journal.
  const fromTool = record.status === 'succeeded' && !(call.hasOutput && mode === 'eager');
  const validate = registered?.validateOutput;
  if (fromTool && validate && record.output !== undefined && !validate(record.output)) {
    return `call ${id}'s journaled ${describeSchemaErrors('output', validate.errors)}`;
  }
  return undefined;
}

/** `{message: string, code?: string}` and nothing else: what a handled throw writes. */
function isCallError(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { message, code } = value as { message?: unknown; code?: unknown };
  const keys = Object.keys(value).length;
  return (
    typeof message === 'string' && (code === undefined ? keys === 1 : typeof code === 'string' && keys === 2)
  );
}

/** The writer put a stand-in where JSON could not hold the output: a resume runs the call again. */
function outputReplaced(record: CallEnd): boolean {
  const replaced = (record as unknown as Record<string, unknown>)[REPLACED_FIELDS];
  return Array.isArray(replaced) && replaced.includes('output');
}
