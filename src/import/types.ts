/**
 * What the importers of the field's plan dialects (NESTFUL, NesTools, LLMCompiler) produce:
 * per sample, a planmode context document and a JSON tool manifest, plus what the format could
 * not say (warnings) and the rows that could not be read at all (errors, each with its line).
 * Every importer returns an `ImportResult`; none throws on bad data.
 */
import type { JsonSchema } from '../tools/index.js';

/** The dialects `importPlans` reads. */
export const IMPORT_FORMATS = ['nestful', 'nestools', 'llmcompiler'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Codes of import problems: stable, so scripts may match on them. */
export const IMPORT_CODES = [
  // A row (sample) that is not what the format says a row is: it is left out, the others import.
  'E_IMPORT_ROW',
  // The whole file (or the spec/tools file) cannot be read: nothing imports.
  'E_IMPORT_FILE',
  // A type name the format uses that has no JSON Schema type here: the parameter is left untyped.
  'W_IMPORT_TYPE',
  // A reference inside a longer string ("5 * $var1.rate$"): planmode references are whole
  // strings, so the text is passed as it is written.
  'W_IMPORT_EMBEDDED_REFERENCE',
  // Something that looks like a reference but is not one of the format's ("var1.x$").
  'W_IMPORT_MALFORMED_REFERENCE',
  // A reference to a label, response or step no earlier call has.
  'W_IMPORT_UNKNOWN_REFERENCE',
  // A sample id an earlier sample already has: this one gets a suffix (`q1-2`).
  'W_IMPORT_DUPLICATE_ID',
  // Anything else the format says that a planmode plan cannot (named in the message).
  'W_IMPORT_UNSUPPORTED',
] as const;
export type ImportCode = (typeof IMPORT_CODES)[number];

/** One problem met while importing. */
export interface ImportProblem {
  readonly severity: 'error' | 'warning';
  readonly code: ImportCode;
  /** What is wrong, naming the value. */
  readonly message: string;
  /** 1-based line in the data file where the row (or the value) starts; 0 when not in it. */
  readonly line: number;
  /** The sample's id, when the problem is inside one sample. */
  readonly sample?: string;
  /** Which file the line is in: the data file or the spec/tools file. */
  readonly file?: 'data' | 'spec';
  /** How to fix it, when there is a way. */
  readonly hint?: string;
}

/** One tool definition of a manifest: no `execute`, as in `schemas/tool-manifest.schema.json`. */
export interface ManifestTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
}

/** A JSON tool manifest (`tools.json`). */
export interface ToolManifest {
  readonly tools: readonly ManifestTool[];
}

/** One imported sample. */
export interface ImportedSample {
  /** Unique within the import and safe as a folder name: `[A-Za-z0-9._-]`, not `.`/`..`. */
  readonly id: string;
  /** The task (user query) text, when the format has one. */
  readonly task?: string;
  /**
   * The planmode context document: `[{type:"input", task}, {type:"plan", mode, plan:[calls]}]`
   * (the input message only when there is a task). Written as `DIR/<id>/plan.json`.
   */
  readonly plan: readonly unknown[];
  /** The tools the sample's plan may call, from the dataset's types. `DIR/<id>/tools.json`. */
  readonly tools: ToolManifest;
  /** 1-based line of the sample's row in the data file. */
  readonly line: number;
  /** What the format could not express for this sample: never dropped silently. */
  readonly warnings: readonly ImportProblem[];
}

/** The samples that imported, and the errors of those that did not. */
export interface ImportResult {
  readonly format: ImportFormat;
  readonly samples: readonly ImportedSample[];
  /** Rows that could not be imported (`E_IMPORT_ROW`) or a file that could not be read (`E_IMPORT_FILE`). */
  readonly errors: readonly ImportProblem[];
}

/** Options of `importPlans`. */
export interface ImportOptions {
  /**
   * The companion file's text: NESTFUL's API spec (`*-spec.json`), or LLMCompiler's tools file.
   * Required for those two formats; NesTools carries its APIs in each row.
   * @default undefined
   */
  readonly spec?: string;
  /**
   * Mode of the imported plan messages. Gold plans are whole plans written before anything
   * runs, so they are lazy: approved as a whole, then run.
   * @default 'lazy'
   */
  readonly mode?: 'eager' | 'lazy';
  /**
   * Prefix of the ids of samples the data gives no usable id: `<idPrefix>-<n>` (NESTFUL's
   * samples have none; NesTools' `test_id` is used as `<idPrefix>-<test_id>`). Must itself be a
   * safe folder name (`[A-Za-z0-9._-]`).
   * @default the format's name
   */
  readonly idPrefix?: string;
  /**
   * Largest data or spec text read, in bytes (UTF-8); past it the file is `E_IMPORT_FILE`.
   * @default 67_108_864 (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * Most samples imported; past it, one `E_IMPORT_ROW` error (at the first sample left out)
   * counts the samples not imported.
   * @default 100_000
   */
  readonly maxSamples?: number;
}
