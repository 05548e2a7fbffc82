/**
 * One NesTools row `{test_id, api: [{api_name, parameters, required, responses}], task, call:
 * [{api_name, parameters, responses: ["API_call_0", ...]}]}` to a planmode plan. Call N (from 1)
 * gets `_id` `callN` and writes `†state.callN`; its `responses` name its response fields in the
 * order of its API's `responses`, so `"API_call_k"` in a later argument reads
 * `†state.callN.<field>`. A name listed past the API's fields, or given twice, names nothing
 * and is reported.
 */
import type { ImportProblem, ImportedSample, ManifestTool } from '../types.js';
import {
  importedSample,
  isMetaKey,
  isRecord,
  manifestTool,
  mapStrings,
  MAX_ARGUMENT_DEPTH,
  planReference,
} from '../reader/index.js';

/** A sample, or why its row is not one. */
export type RowRead = { readonly sample: ImportedSample } | { readonly error: string };

/** Where a response name points: the call that returns it and the field. */
interface Response {
  readonly call: string;
  readonly field: string;
}

const RESPONSE_NAME = /^API_call_[0-9]{1,9}$/;

/** Reads one parsed row. */
export function readNestoolsRow(
  row: unknown,
  place: { readonly id: string; readonly line: number },
  mode: 'eager' | 'lazy',
): RowRead {
  if (!isRecord(row)) return { error: 'a row must be an object {"test_id", "api", "task", "call"}' };
  if (!Array.isArray(row.api)) return { error: 'a row needs "api": the array of its APIs' };
  if (!Array.isArray(row.call)) return { error: 'a row needs "call": the array of its calls' };
  const warnings: ImportProblem[] = [];
  const warn = (code: ImportProblem['code'], message: string): void => {
    warnings.push({ severity: 'warning', code, message, line: place.line, sample: place.id, file: 'data' });
  };
  const tools: ManifestTool[] = [];
  const fieldsOf = new Map<string, string[]>();
  for (const [k, api] of row.api.entries()) {
    if (!isRecord(api) || typeof api.api_name !== 'string' || api.api_name === '') {
      return { error: `API ${k} must be an object with a non-empty string "api_name"` };
    }
    if (fieldsOf.has(api.api_name)) return { error: `the API "${api.api_name}" is defined twice` };
    const responses = isRecord(api.responses) ? api.responses : undefined;
    const { tool, problems } = manifestTool({
      name: api.api_name,
      description: api.api_description,
      parameters: [isRecord(api.parameters) ? api.parameters : undefined],
      requiredList: api.required,
      responses,
    });
    tools.push(tool);
    fieldsOf.set(api.api_name, Object.keys(responses ?? {}));
    for (const p of problems) {
      warn(
        'W_IMPORT_TYPE',
        `the API "${api.api_name}" gives ${p.at} the type "${p.type}", which has no JSON Schema type: it is left untyped`,
      );
    }
  }
  const responses = new Map<string, Response>();
  const calls: unknown[] = [];
  for (const [k, raw] of row.call.entries()) {
    if (!isRecord(raw) || typeof raw.api_name !== 'string' || raw.api_name === '') {
      return { error: `call ${k} must be an object with a non-empty string "api_name"` };
    }
    if (raw.parameters !== undefined && !isRecord(raw.parameters))
      return { error: `the "parameters" of call ${k} (${raw.api_name}) must be an object` };
    if (
      raw.responses !== undefined &&
      !(Array.isArray(raw.responses) && raw.responses.every((r) => typeof r === 'string'))
    ) {
      return { error: `the "responses" of call ${k} (${raw.api_name}) must be an array of names` };
    }
    const id = `call${k + 1}`;
    const out: Record<string, unknown> = { _id: id, _tool: raw.api_name };
    for (const [argument, value] of Object.entries(raw.parameters ?? {})) {
      if (isMetaKey(argument)) {
        warn(
          'W_IMPORT_UNSUPPORTED',
          `${id} (${raw.api_name}): the argument "${argument}" is left out: planmode reads keys that start with "_" as its own`,
        );
        continue;
      }
      const mapped = mapStrings(value, (text) => {
        const response = responses.get(text);
        if (response) return planReference(response.call, [response.field]);
        if (RESPONSE_NAME.test(text)) {
          warn(
            'W_IMPORT_UNKNOWN_REFERENCE',
            `${id} (${raw.api_name}), argument "${argument}": "${text}" is no response of an earlier call; it is passed as text`,
          );
        }
        return text;
      });
      if ('tooDeep' in mapped)
        return {
          error: `the argument "${argument}" of call ${k} (${raw.api_name}) is nested more than ${MAX_ARGUMENT_DEPTH} levels deep`,
        };
      out[argument] = mapped.value;
    }
    out._outputPath = planReference(id);
    calls.push(out);
    const fields = fieldsOf.get(raw.api_name);
    for (const [n, name] of ((raw.responses as string[] | undefined) ?? []).entries()) {
      const field = fields?.[n];
      if (field === undefined) {
        warn(
          'W_IMPORT_UNKNOWN_REFERENCE',
          `${id} (${raw.api_name}): the response name "${name}" is number ${n + 1}, but ${fields ? `the API returns ${fields.length} field(s)` : 'the row defines no such API'}; it names nothing`,
        );
      } else if (responses.has(name)) {
        warn(
          'W_IMPORT_UNKNOWN_REFERENCE',
          `${id} (${raw.api_name}): the response name "${name}" was given by an earlier call; later arguments read the earlier one`,
        );
      } else responses.set(name, { call: id, field });
    }
  }
  const task = typeof row.task === 'string' ? row.task : undefined;
  return { sample: importedSample({ id: place.id, line: place.line, task, mode, calls, tools, warnings }) };
}
