/**
 * One NESTFUL sample `{input, output: [{name, arguments, label}]}` to a planmode plan: each
 * call keeps its label as `_id` and writes `†state.<label>`; `var_result`, which has no label,
 * writes `†state.result`. References become `†state` paths; an embedded or malformed one stays
 * text with a warning, and an embedded one orders its call after the producer (`_after`), so
 * the plan keeps every dependency the data has.
 */
import type { ImportProblem, ImportedSample, ManifestTool } from '../types.js';
import {
  clip,
  importedSample,
  isMetaKey,
  isRecord,
  mapStrings,
  MAX_ARGUMENT_DEPTH,
  planReference,
} from '../reader/index.js';
import { bareLabel, readNestfulString } from './references.js';
import { ANSWER_TOOL, ANSWER_TOOL_DEFINITION, type Spec } from './spec.js';

/** A sample, or why its row is not one. */
export type SampleRead = { readonly sample: ImportedSample } | { readonly error: string };

/** Reads one row of the data file; `id` is the sample's id, `line` its row's line. */
export function readNestfulSample(
  row: unknown,
  place: { readonly id: string; readonly line: number },
  spec: Spec,
  mode: 'eager' | 'lazy',
): SampleRead {
  if (!isRecord(row)) return { error: 'a sample must be an object {"input", "output": [calls]}' };
  if (!Array.isArray(row.output)) return { error: 'a sample needs "output": the array of its calls' };
  const warnings: ImportProblem[] = [];
  const warn = (code: ImportProblem['code'], message: string, hint?: string): void => {
    warnings.push({
      severity: 'warning',
      code,
      message,
      line: place.line,
      sample: place.id,
      file: 'data',
      ...(hint ? { hint } : {}),
    });
  };
  const labels = new Set<string>();
  for (const [k, call] of row.output.entries()) {
    if (!isRecord(call)) return { error: `call ${k} must be an object {"name", "arguments", "label"}` };
    if (typeof call.name !== 'string' || call.name === '')
      return { error: `call ${k} needs a non-empty string "name"` };
    if (call.arguments !== undefined && !isRecord(call.arguments))
      return { error: `the "arguments" of call ${k} (${call.name}) must be an object` };
    if (call.label !== undefined && call.label !== null && typeof call.label !== 'string') {
      return { error: `the "label" of call ${k} (${call.name}) must be a string` };
    }
    if (typeof call.label === 'string') labels.add(bareLabel(call.label));
  }
  const calls: unknown[] = [];
  const used = new Set<string>();
  for (const [k, raw] of row.output.entries()) {
    const call = raw as Record<string, unknown>;
    const name = call.name as string;
    used.add(name);
    const label = typeof call.label === 'string' ? bareLabel(call.label) : undefined;
    const out: Record<string, unknown> = {};
    if (label !== undefined) out._id = label;
    out._tool = name;
    const after: string[] = [];
    for (const [argument, value] of Object.entries(
      (call.arguments as Record<string, unknown> | undefined) ?? {},
    )) {
      if (isMetaKey(argument)) {
        warn(
          'W_IMPORT_UNSUPPORTED',
          `call ${k} (${name}): the argument "${argument}" is left out: planmode reads keys that start with "_" as its own`,
        );
        continue;
      }
      const mapped = mapStrings(value, (text) => {
        const read = readNestfulString(text, labels);
        switch (read.kind) {
          case 'reference':
            if (!labels.has(read.label)) {
              warn(
                'W_IMPORT_UNKNOWN_REFERENCE',
                `call ${k} (${name}), argument "${argument}": "${text}" names the label "${read.label}", which no call of the sample has`,
              );
            }
            return planReference(read.label, read.steps);
          case 'embedded':
            for (const l of read.labels) if (!after.includes(l) && l !== label) after.push(l);
            warn(
              'W_IMPORT_EMBEDDED_REFERENCE',
              `call ${k} (${name}), argument "${argument}": "${clip(text)}" has references inside longer text, which a plan passes as text`,
              read.labels.length > 0
                ? `the call still runs after ${read.labels.join(', ')}; to pass the values, compute them in a call of their own`
                : 'to pass the values, compute them in a call of their own',
            );
            if (read.unknown.length > 0) {
              warn(
                'W_IMPORT_UNKNOWN_REFERENCE',
                `call ${k} (${name}), argument "${argument}": "${clip(text)}" names ${read.unknown.map((l) => `"${l}"`).join(', ')}, which no call of the sample has`,
              );
            }
            return text;
          case 'malformed':
            warn(
              'W_IMPORT_MALFORMED_REFERENCE',
              `call ${k} (${name}), argument "${argument}": "${clip(text)}" looks like a reference to "${read.label}" but is not written as one ($${read.label}.field$); it is passed as text`,
            );
            return text;
          default:
            return text;
        }
      });
      if ('tooDeep' in mapped)
        return {
          error: `the argument "${argument}" of call ${k} (${name}) is nested more than ${MAX_ARGUMENT_DEPTH} levels deep`,
        };
      out[argument] = mapped.value;
    }
    if (after.length > 0) out._after = after;
    if (label !== undefined) out._outputPath = planReference(label);
    else if (name === ANSWER_TOOL) out._outputPath = planReference('result');
    calls.push(out);
  }
  const tools: ManifestTool[] = [];
  for (const [toolName, entry] of spec.tools) {
    tools.push(entry.tool);
    if (!used.has(toolName)) continue;
    for (const p of entry.problems) {
      warnings.push({
        severity: 'warning',
        code: 'W_IMPORT_TYPE',
        message: `the API "${toolName}" gives ${p.at} the type "${p.type}", which has no JSON Schema type: it is left untyped`,
        line: entry.line,
        sample: place.id,
        file: 'spec',
      });
    }
  }
  if (used.has(ANSWER_TOOL)) tools.push(ANSWER_TOOL_DEFINITION);
  const task = typeof row.input === 'string' ? row.input : undefined;
  const sample = importedSample({ id: place.id, line: place.line, task, mode, calls, tools, warnings });
  return { sample };
}
