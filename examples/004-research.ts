/**
 * A research task as one plan: search, then fetch and summarize every result, then
 * combine the summaries. The middle step is the delegated loop: `_forEach` over a workflow, a
 * tool whose definition is a plan of its own (`readAndSummarize`: fetch the page, summarize its
 * text). Each search result runs that sub-plan once, in parallel within the run's concurrency,
 * and the call's output is the array of the workflow's outputs in result order, typed as such:
 * `combine` reads it, and a reader of a field the summaries do not have would not compile.
 *
 * The tools are local and deterministic: a small search index and the pages it points at, kept
 * in this file, so the example runs offline and prints the same report every time.
 */
import type { Tool } from '../src/index.js';
import { run } from '../src/run/index.js';
import type { Example, ExampleOutcome } from './example.js';

const SEED = '004-research';

/** The web the example searches: a few pages, by URL. */
const PAGES: Readonly<Record<string, { title: string; text: string }>> = {
  'https://example.org/bees/pollination': {
    title: 'How bees pollinate crops',
    text: 'Bees carry pollen between flowers while they gather nectar, and about a third of the food crops people eat depend on that visit for their fruit and seeds.',
  },
  'https://example.org/bees/decline': {
    title: 'Why wild bee numbers fall',
    text: 'Wild bee numbers fall where meadows give way to fields of one crop, where pesticides linger on the flowers, and where winters grow warm and wet.',
  },
  'https://example.org/bees/gardens': {
    title: 'Gardens that feed bees',
    text: 'A garden with flowers from early spring to late autumn, a patch of bare soil and a little water feeds bees through the whole season.',
  },
  'https://example.org/ants/colonies': {
    title: 'How ant colonies divide work',
    text: 'Ants share the work of a colony by age: the young tend the brood and the old forage outside.',
  },
};

/** What the index knows: the words each page is found by. */
const INDEX: readonly { url: string; words: readonly string[] }[] = [
  { url: 'https://example.org/bees/pollination', words: ['bees', 'pollination', 'crops'] },
  { url: 'https://example.org/bees/decline', words: ['bees', 'decline', 'pesticides'] },
  { url: 'https://example.org/ants/colonies', words: ['ants', 'colonies'] },
  { url: 'https://example.org/bees/gardens', words: ['bees', 'gardens', 'flowers'] },
];

const SUMMARY_WORDS = 12;

const stringProperty = { type: 'string' } as const;

/** The search, the fetch, the summarizer and the combiner, plus the workflow over two of them. */
export function researchTools(fetched: string[] = []): Tool[] {
  const search: Tool = {
    name: 'search',
    description: 'Finds pages about a topic in the local index',
    inputSchema: { type: 'object', properties: { query: stringProperty }, required: ['query'] },
    outputSchema: {
      type: 'object',
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: { url: stringProperty, title: stringProperty },
            required: ['url', 'title'],
            additionalProperties: false,
          },
        },
      },
      required: ['results'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    execute: ({ query }) => {
      const words = String(query).toLowerCase().split(/\s+/);
      const results = INDEX.filter((entry) => words.some((word) => entry.words.includes(word))).map(
        ({ url }) => ({ url, title: PAGES[url]!.title }),
      );
      return { results };
    },
  };
  const fetchPage: Tool = {
    name: 'fetchPage',
    description: 'Fetches a page of the local web by URL',
    inputSchema: { type: 'object', properties: { url: stringProperty }, required: ['url'] },
    outputSchema: {
      type: 'object',
      properties: { url: stringProperty, text: stringProperty },
      required: ['url', 'text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    execute: ({ url }) => {
      const page = PAGES[String(url)];
      if (!page) throw new Error(`no page at ${String(url)}`);
      fetched.push(String(url));
      return { url: String(url), text: page.text };
    },
  };
  const summarizeText: Tool = {
    name: 'summarizeText',
    description: 'Shortens a text to its first words',
    inputSchema: {
      type: 'object',
      properties: { text: stringProperty, maxWords: { type: 'integer', minimum: 1 } },
      required: ['text', 'maxWords'],
    },
    outputSchema: {
      type: 'object',
      properties: { summary: stringProperty, words: { type: 'integer' } },
      required: ['summary', 'words'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    execute: ({ text, maxWords }) => {
      const words = String(text).split(/\s+/);
      const kept = words.slice(0, maxWords as number);
      const summary = kept.join(' ').replace(/[,.]$/, '') + (kept.length < words.length ? ' …' : '');
      return { summary, words: kept.length };
    },
  };
  // A workflow: a plan as a tool. Its arguments are the sub-plan's †input; its result is
  // `output`, filled in from the sub-plan's final state, and typed from it.
  const readAndSummarize: Tool = {
    name: 'readAndSummarize',
    description: 'Fetches one search result and summarizes it',
    inputSchema: {
      type: 'object',
      properties: { url: stringProperty, title: stringProperty },
      required: ['url', 'title'],
    },
    plan: [
      { _id: 'fetch', _tool: 'fetchPage', url: '†input.url', _outputPath: '†state.page' },
      {
        _id: 'summarize',
        _tool: 'summarizeText',
        text: '†state.page.text',
        maxWords: SUMMARY_WORDS,
        _outputPath: '†state.short',
      },
    ],
    output: { title: '†input.title', url: '†input.url', summary: '†state.short.summary' },
  };
  const combine: Tool = {
    name: 'combine',
    description: 'Writes a short report from the summaries',
    inputSchema: {
      type: 'object',
      properties: {
        topic: stringProperty,
        summaries: {
          type: 'array',
          items: {
            type: 'object',
            properties: { title: stringProperty, summary: stringProperty },
            required: ['title', 'summary'],
          },
        },
      },
      required: ['topic', 'summaries'],
    },
    outputSchema: { type: 'string' },
    annotations: { readOnlyHint: true },
    execute: ({ topic, summaries }) => {
      const items = summaries as { title: string; summary: string }[];
      const body = items.map((item, i) => `${i + 1}. ${item.title}: ${item.summary}`);
      return [`${String(topic)}: ${items.length} sources`, ...body].join('\n');
    },
  };
  return [search, fetchPage, summarizeText, readAndSummarize, combine];
}

/** The plan a model writes for "research <topic>": one call per step, however many results. */
export const RESEARCH_PLAN = [
  { _id: 'search', _tool: 'search', query: '†input.topic', _outputPath: '†state.found' },
  {
    _id: 'read',
    _tool: 'readAndSummarize',
    url: '†item.url',
    title: '†item.title',
    _forEach: '†state.found.results',
    _outputPath: '†state.summaries',
  },
  {
    _id: 'combine',
    _tool: 'combine',
    topic: '†input.topic',
    summaries: '†state.summaries',
    _outputPath: '†state.report',
  },
];

async function runExample(): Promise<ExampleOutcome> {
  const fetched: string[] = [];
  const topic = 'bees';
  const result = await run(RESEARCH_PLAN, {
    tools: researchTools(fetched),
    input: { topic },
    concurrency: 2,
  });
  const read = result.calls.find((call) => call.id === 'read');
  const elements = read?.elements ?? [];
  const report = typeof result.state.report === 'string' ? result.state.report : '';
  const lines = [
    `research "${topic}": run ${result.status}; calls ${result.calls.map((c) => `${c.id} ${c.status}`).join(', ')}`,
    `read ran readAndSummarize once per search result: ${elements.length} elements, ${elements
      .map((element, i) => `[${i}] ${element.status}`)
      .join(', ')}`,
    ...report.split('\n'),
  ];
  return {
    lines,
    facts: {
      status: result.status,
      calls: result.calls.map((c) => [c.id, c.status]),
      elements: elements.map((element) => element.status),
      fetched: [...fetched].sort(),
      summaries: result.state.summaries,
      report,
    },
  };
}

export const example: Example = {
  seed: SEED,
  title:
    'research: search, then fetch and summarize every result with _forEach over a workflow, then combine',
  run: runExample,
};
