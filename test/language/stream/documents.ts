/** Plan texts of every shape and extension, made up for the incremental reader's tests. */
const call = (tool: string, extra = '') => `{"_tool": "${tool}"${extra}}`;

export const MADE_UP_DOCUMENTS: { name: string; text: string }[] = [
  { name: 'bare array', text: `[${call('a')}, ${call('b', ', "x": "†state.a"')}]` },
  {
    name: 'bare array, pretty',
    text: JSON.stringify([{ _tool: 'a', q: [1, { r: 'é"\\' }] }, { _tool: 'b' }], null, 2),
  },
  { name: 'solution', text: `{"calls": [\n  ${call('a')},\n  ${call('b')}\n], "output": null}` },
  { name: 'solution, output first', text: `{"output": null, "calls": [${call('a')}]}` },
  {
    name: 'plan message, eager first',
    text: `{"type": "plan", "mode": "eager", "plan": [${call('a')}, ${call('b')}]}`,
  },
  { name: 'plan message, lazy', text: `{"type": "plan", "mode": "lazy", "plan": [${call('a')}]}` },
  {
    name: 'plan message, mode after plan',
    text: `{"type": "plan", "plan": [${call('a')}], "mode": "eager"}`,
  },
  {
    name: 'context array, eager plan',
    text: `[{"type": "input", "city": "Paris"},\n {"type": "plan", "mode": "eager", "plan": [\n  ${call('a')},\n  ${call('b')}]}]`,
  },
  {
    name: 'context array, plain plan',
    text: `[{"type": "input", "city": "Paris"}, {"type": "plan", "plan": [${call('a')}]}]`,
  },
  {
    name: 'comments and trailing commas',
    text: `// plan\n[\n  {"_tool": "a", /* why */ "q": 1,},\n  ${call('b')}, // last\n]`,
  },
  { name: 'duplicate keys in a call', text: `[\n  {"_tool": "a",\n   "q": 1, "q": 2},\n  ${call('b')}]` },
  { name: 'duplicate keys and a comment', text: `[{"_tool": "a", "q": 1, /* c */ "q": 2}]` },
  { name: 'escaped keys', text: `[{"\\u005ftool": "a", "_tool": "b"}]` },
  { name: 'byte order mark', text: `\ufeff[\n${call('a')}]` },
  { name: 'broken call', text: `[${call('a')}, {"_tool": tru}]` },
  { name: 'unclosed', text: `[${call('a')}, ${call('b')}` },
  { name: 'unterminated comment', text: `[${call('a')} /* never` },
  { name: 'a scalar call', text: `[${call('a')}, 12, "s", true]` },
  { name: 'empty', text: '' },
  { name: 'text after the root', text: `[${call('a')}] [${call('b')}]` },
  { name: 'a slash that is not a comment', text: `[${call('a')}, /]` },
  { name: 'crlf lines', text: `[\r\n  ${call('a')},\r\n  {"_tool": "b", "q": 1, "q": 2}\r\n]` },
  { name: 'surrogate pairs', text: `[{"_tool": "a", "q": "😀😀"}, {"_tool": "b", "q": 1, "q": 2}]` },
];

/** Texts that take a turn after calls were handed out: those calls are not the document's, and end() says so. */
export const DIVERGING_DOCUMENTS: { name: string; text: string }[] = [
  {
    name: 'message-like elements, then a call: a bare array',
    text: `[{"type": "plan", "mode": "eager", "plan": [${call('x')}]}, ${call('a')}]`,
  },
  {
    name: 'repeated calls key',
    text: `{"calls": [${call('a')}], "calls": [${call('b')}, ${call('c')}], "output": null}`,
  },
];
