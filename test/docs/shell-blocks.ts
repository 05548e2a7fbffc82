/**
 * The command lines README.md and docs/*.md show, read out of their fenced blocks.
 *
 * A block is one of:
 * - a session: it has `$ ` prompt lines; each prompt's command (with `\` continuations) is
 *   followed by the output it prints, up to the next prompt;
 * - commands: `plan ...` lines without a prompt in a sh/bash/console block or a plain one; they
 *   are run and must succeed;
 * - a synopsis: every `plan ...` line uses usage notation (`<file>`, `[--flag]`); nothing runs;
 * - an output: the block after `<!-- output of: plan ... -->` is that command's whole output.
 *
 * `<!-- not run: <reason> -->` on the lines before a block (blank lines between allowed) keeps
 * it from running: for commands that need a model's API key, the network, a server or files of
 * the reader's own. `<!-- run in: <folder> -->` runs a block's commands from that folder of the
 * repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The subcommands of `plan`: a line starting `plan <one of them>` is a command line. */
const COMMANDS = 'validate|graph|explain|simulate|run|schema|worker|agent|import|eval';
/** How the docs call the CLI: `plan`, `planmode`, `npx plan`, `node bin/plan.js`. */
const INVOCATION = /^(?:npx )?(?:plan|planmode|node bin\/plan\.js)(?= )/;
const UNPROMPTED_COMMAND = new RegExp(`^(?:npx )?(?:plan|planmode|node bin/plan\\.js) (?:${COMMANDS})\\b`);
const USAGE_NOTATION = /<[^>\s]+>|\[--?[a-z]/;

export interface ShownCommand {
  /** The command line as shown, continuations joined. */
  readonly line: string;
  /** Its arguments after `plan`, or undefined when it does not call the CLI. */
  readonly args: readonly string[] | undefined;
  /** The output shown after it (sessions and output markers), or undefined (commands blocks). */
  readonly output: string | undefined;
}

export interface ShellBlock {
  /** `docs/cli.md:89`: the page and the line of the block's opening fence. */
  readonly where: string;
  readonly kind: 'session' | 'commands' | 'synopsis' | 'output';
  readonly commands: readonly ShownCommand[];
  /** The reason of a `not run` marker. */
  readonly notRun: string | undefined;
  /** The folder of a `run in` marker, relative to the repository. */
  readonly runIn: string | undefined;
}

/** The pages whose blocks are read: README.md and every docs/*.md. */
export function pages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.sort().map((name) => `docs/${name}`)];
}

/** Every block of `page` that shows a command line, in page order. */
export function shellBlocks(root: string, page: string): ShellBlock[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\S*)/.exec(lines[i]!);
    if (!fence) continue;
    const open = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const language = fence[1]!;
    if (language !== '' && !['sh', 'bash', 'console', 'shell', 'text', 'mermaid'].includes(language))
      continue;
    const markers = markersBefore(lines, open);
    const block = classify(body, markers);
    if (block) blocks.push({ where: `${page}:${open + 1}`, ...block, ...markers.common });
  }
  return blocks;
}

interface Markers {
  readonly common: { readonly notRun: string | undefined; readonly runIn: string | undefined };
  readonly outputOf: string | undefined;
}

/** The `<!-- ... -->` markers on the lines just above line `open` (blank lines skipped). */
function markersBefore(lines: readonly string[], open: number): Markers {
  let notRun: string | undefined;
  let runIn: string | undefined;
  let outputOf: string | undefined;
  for (let j = open - 1; j >= 0; j--) {
    const text = lines[j]!.trim();
    if (text === '') continue;
    const marker = /^<!-- (not run|run in|output of): (.+?) -->$/.exec(text);
    if (!marker) break;
    if (marker[1] === 'not run') notRun = marker[2];
    else if (marker[1] === 'run in') runIn = marker[2];
    else outputOf = marker[2];
  }
  return { common: { notRun, runIn }, outputOf };
}

function classify(
  body: readonly string[],
  markers: Markers,
): Pick<ShellBlock, 'kind' | 'commands'> | undefined {
  if (markers.outputOf !== undefined) {
    const line = markers.outputOf;
    return { kind: 'output', commands: [{ line, args: cliArgs(line), output: body.join('\n') }] };
  }
  if (body.some((line) => line.startsWith('$ '))) return { kind: 'session', commands: session(body) };
  const commandLines = joinContinuations(body.map((line) => line.trim())).filter((line) =>
    UNPROMPTED_COMMAND.test(line),
  );
  if (commandLines.length === 0) return undefined;
  if (commandLines.every((line) => USAGE_NOTATION.test(line))) return { kind: 'synopsis', commands: [] };
  return {
    kind: 'commands',
    commands: commandLines.map((line) => ({ line, args: cliArgs(line), output: undefined })),
  };
}

/** A session's commands, each with the lines up to the next prompt as its output. */
function session(body: readonly string[]): ShownCommand[] {
  const commands: ShownCommand[] = [];
  for (let i = 0; i < body.length;) {
    let line = body[i]!.slice(2);
    for (i++; line.endsWith('\\') && i < body.length; i++)
      line = `${line.slice(0, -1).trimEnd()} ${body[i]!.trim()}`;
    const output: string[] = [];
    for (; i < body.length && !body[i]!.startsWith('$ '); i++) output.push(body[i]!);
    while (output.length > 0 && output.at(-1)!.trim() === '') output.pop();
    commands.push({ line, args: cliArgs(line), output: output.join('\n') });
  }
  return commands;
}

function joinContinuations(lines: readonly string[]): string[] {
  const joined: string[] = [];
  let pending: string | undefined;
  for (const line of lines) {
    const whole = pending === undefined ? line : `${pending} ${line}`;
    if (whole.endsWith('\\')) pending = whole.slice(0, -1).trimEnd();
    else {
      joined.push(whole);
      pending = undefined;
    }
  }
  if (pending !== undefined) joined.push(pending);
  return joined;
}

/** The arguments after `plan` of a shell line (quotes removed), or undefined if not the CLI. */
export function cliArgs(line: string): string[] | undefined {
  const invocation = INVOCATION.exec(line);
  return invocation ? shellWords(line.slice(invocation[0].length)) : undefined;
}

/** Splits a line as sh does for the quoting the docs use: '...', "..." (with \ escapes), # comments. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  // `inWord`: a word has started, even an empty one ('' is a word).
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length) word += text[++i]!;
      else word += c;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === '#' && !inWord) break;
    else {
      if (c === "'" || c === '"') quote = c;
      else word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`unclosed ${quote} in: ${text}`);
  if (inWord) words.push(word);
  return words;
}
