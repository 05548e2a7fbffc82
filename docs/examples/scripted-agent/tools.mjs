/** The tools of the scripted agent example: a read-only price lookup and a log that records lines. */
import { appendFileSync } from 'node:fs';

export const tools = [
  {
    name: 'lookup',
    description: 'Look up a stock price',
    inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
    outputSchema: { type: 'number' },
    annotations: { readOnlyHint: true },
    execute: ({ symbol }) => (symbol === 'ACME' ? 42 : 7),
  },
  {
    name: 'record',
    description: 'Append a line to prices.log in the working directory',
    inputSchema: { type: 'object', properties: { line: {} }, required: ['line'] },
    execute: ({ line }) => {
      appendFileSync('prices.log', `${JSON.stringify(line)}\n`);
      return 'written';
    },
  },
];
