/**
 * NESTFUL's API spec (`*-spec.json`): a JSON array of APIs, each with `name`, `description`,
 * its parameters under `query_parameters` (the executable set, also `path_parameters`),
 * `parameters` (part of GLAIVE) or `arguments` (SGD), each marked `required`, and its
 * `output_parameters`. Every API becomes a manifest tool; `var_result`, NESTFUL's last step
 * that gathers the answer, is not in the spec and becomes a tool of its own.
 */
import { checkJson } from '../../language/json/index.js';
import { DEFAULT_LIMITS } from '../../language/limits.js';
import { type ImportProblem, type ManifestTool } from '../types.js';
import { isRecord, manifestTool, readJsonArray, type ToolTypeProblem } from '../reader/index.js';

/** NESTFUL's answer step: its arguments are the answer, and it calls no API. */
export const ANSWER_TOOL = 'var_result';

/** The tool of NESTFUL's answer step: any arguments, no output schema. */
export const ANSWER_TOOL_DEFINITION: ManifestTool = {
  name: ANSWER_TOOL,
  description: "NESTFUL's last step: gathers the answer from the outputs its arguments name.",
  inputSchema: { type: 'object' },
};

/** One API of the spec as a tool, with the types it could not carry and its line. */
export interface SpecTool {
  readonly tool: ManifestTool;
  readonly problems: readonly ToolTypeProblem[];
  readonly line: number;
}

/** The spec's tools by name, and the entries that could not be read. */
export interface Spec {
  readonly tools: ReadonlyMap<string, SpecTool>;
  readonly errors: readonly ImportProblem[];
}

const PARAMETER_GROUPS = ['query_parameters', 'path_parameters', 'parameters', 'arguments'] as const;

/** Reads the spec text; a text that is not a JSON array is one problem for the whole file. */
export function readSpec(text: string): Spec | { problem: ImportProblem } {
  const read = readJsonArray(text, 'the spec');
  if ('problem' in read) {
    return { problem: { severity: 'error', code: 'E_IMPORT_FILE', file: 'spec', ...read.problem } };
  }
  const tools = new Map<string, SpecTool>();
  const texts = new Map<string, string>();
  const errors: ImportProblem[] = [];
  const bad = (line: number, message: string): void => {
    errors.push({ severity: 'error', code: 'E_IMPORT_ROW', file: 'spec', line, message });
  };
  for (const { value, line } of read.rows) {
    if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') {
      bad(line, 'an API of the spec must be an object with a non-empty string "name"; it is left out');
      continue;
    }
    // Stringified below: bounded first, as JSON.stringify recurses.
    const checked = checkJson(value, { limits: DEFAULT_LIMITS });
    if ('problem' in checked) {
      bad(line, `the API "${value.name}" cannot be read: ${checked.problem.message}; it is left out`);
      continue;
    }
    // GLAIVE's spec repeats some APIs word for word: a copy says nothing new.
    const text = JSON.stringify(value);
    if (texts.get(value.name) === text) continue;
    if (tools.has(value.name) || value.name === ANSWER_TOOL) {
      bad(line, `the spec defines the API "${value.name}" again, differently; the first definition is kept`);
      continue;
    }
    texts.set(value.name, text);
    const groups = PARAMETER_GROUPS.map((key) => value[key]).filter(isRecord);
    const outputs = value.output_parameters;
    const { tool, problems } = manifestTool({
      name: value.name,
      description: value.description,
      parameters: groups,
      responses: isRecord(outputs) ? outputs : undefined,
    });
    tools.set(value.name, { tool, problems, line });
  }
  return { tools, errors };
}
