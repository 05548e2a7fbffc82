/**
 * The gold sets of test/corpora, imported and compiled once per test file: each data file's
 * raw rows (as the file holds them), its raw spec (NESTFUL), the import result, and each
 * sample's compile result with the registry it was compiled against.
 */
import { readFileSync } from 'node:fs';
import { compile, type CompileResult } from '../../../src/compile/index.js';
import { importPlans } from '../../../src/import/index.js';
import type { ImportedSample, ImportFormat, ImportResult } from '../../../src/import/index.js';
import { ToolRegistry, toolsFromManifest } from '../../../src/tools/index.js';

const CORPORA = new URL('../../corpora/', import.meta.url);

/** A raw record of the data (a sample, a call, an API), as parsed from the file. */
export type RawRecord = Record<string, unknown>;

export interface GoldSample {
  readonly sample: ImportedSample;
  /** The sample's row in the data file, unchanged. */
  readonly raw: RawRecord;
  readonly registry: ToolRegistry;
  readonly compiled: CompileResult;
}

export interface GoldSet {
  /** The data file under test/corpora (the key of defects.json). */
  readonly file: string;
  readonly format: ImportFormat;
  /** NESTFUL's APIs by name, from the raw spec file (the first of repeated ones); empty for NesTools. */
  readonly spec: ReadonlyMap<string, RawRecord>;
  readonly result: ImportResult;
  readonly samples: readonly GoldSample[];
}

/** The four data files, with their spec files. */
export const GOLD_FILES: readonly { file: string; format: ImportFormat; spec?: string }[] = [
  { file: 'nestful/executable-data.json', format: 'nestful', spec: 'nestful/executable-spec.json' },
  {
    file: 'nestful/non-executable-glaive-data.json',
    format: 'nestful',
    spec: 'nestful/non-executable-glaive-spec.json',
  },
  {
    file: 'nestful/non-executable-sgd-data.json',
    format: 'nestful',
    spec: 'nestful/non-executable-sgd-spec.json',
  },
  { file: 'nestools/test_data.part1.jsonl', format: 'nestools' },
];

function read(file: string): string {
  return readFileSync(new URL(file, CORPORA), 'utf8');
}

/** Rows of the data file as the file holds them: a JSON array (NESTFUL), one JSON value a line (NesTools). */
function rawRows(format: ImportFormat, text: string): RawRecord[] {
  if (format === 'nestful') return JSON.parse(text) as RawRecord[];
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RawRecord);
}

function loadSet(entry: (typeof GOLD_FILES)[number]): GoldSet {
  const text = read(entry.file);
  const specText = entry.spec === undefined ? undefined : read(entry.spec);
  const result = importPlans(entry.format, text, specText === undefined ? {} : { spec: specText });
  const rows = rawRows(entry.format, text);
  const spec = new Map<string, RawRecord>();
  if (specText !== undefined)
    for (const api of JSON.parse(specText) as RawRecord[])
      if (!spec.has(api.name as string)) spec.set(api.name as string, api);
  // Every row imports (no E_IMPORT_ROW on these files): sample k is row k.
  const registries = sharedRegistries(result.samples);
  const samples = result.samples.map((sample, k) => {
    const registry = registries[k]!;
    return { sample, raw: rows[k]!, registry, compiled: compile(sample.plan, { tools: registry }) };
  });
  return { file: entry.file, format: entry.format, spec, result, samples };
}

/**
 * A registry per sample that holds exactly the sample's own tool definitions, and maybe more of
 * other samples' (never another definition under one of its names). A registry compiles every
 * schema with ajv, which costs milliseconds each: one registry per sample would take most of a
 * minute for these 800 samples, and most samples share their definitions (a NESTFUL file's
 * samples all carry its spec). A sample that calls a tool its own manifest lacks gets a registry
 * of its own, so an unknown tool is reported as it would be.
 */
function sharedRegistries(samples: readonly ImportedSample[]): ToolRegistry[] {
  const buckets: { definitions: Map<string, string>; members: number[] }[] = [];
  const own: (ToolRegistry | undefined)[] = [];
  samples.forEach((sample, k) => {
    const names = new Set(sample.tools.tools.map((t) => t.name));
    const calls = planCalls(sample);
    if (calls.some((c) => typeof c._tool === 'string' && !names.has(c._tool))) {
      own[k] = new ToolRegistry(toolsFromManifest(sample.tools, sample.id));
      return;
    }
    const texts = sample.tools.tools.map((t) => [t.name, JSON.stringify(t)] as const);
    let bucket = buckets.find((b) =>
      texts.every(([name, text]) => (b.definitions.get(name) ?? text) === text),
    );
    if (!bucket) buckets.push((bucket = { definitions: new Map(), members: [] }));
    for (const [name, text] of texts) bucket.definitions.set(name, text);
    bucket.members.push(k);
  });
  for (const bucket of buckets) {
    const manifest = { tools: [...bucket.definitions.values()].map((text) => JSON.parse(text) as unknown) };
    const registry = new ToolRegistry(toolsFromManifest(manifest, 'gold tools'));
    for (const k of bucket.members) own[k] = registry;
  }
  return own as ToolRegistry[];
}

let loaded: GoldSet[] | undefined;

/** The four gold sets, imported and compiled (once per test file). */
export function goldSets(): readonly GoldSet[] {
  return (loaded ??= GOLD_FILES.map(loadSet));
}

/** The raw calls of a sample: NESTFUL's `output`, NesTools' `call`. */
export function rawCalls(set: GoldSet, raw: RawRecord): RawRecord[] {
  return (set.format === 'nestful' ? raw.output : raw.call) as RawRecord[];
}

/** The calls of an imported plan document (its plan message's `plan`). */
export function planCalls(sample: ImportedSample): Record<string, unknown>[] {
  const message = sample.plan.find((m) => (m as { type?: string }).type === 'plan') as {
    plan: Record<string, unknown>[];
  };
  return message.plan;
}
