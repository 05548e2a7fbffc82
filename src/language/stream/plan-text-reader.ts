/**
 * Plan text read as it arrives (a model's reply streamed token by token, a plan piped to
 * `plan run -`): each call is handed out as soon as its text has closed, so it can start while
 * the rest is still being written. One grammar with the whole-document parser: a call's value
 * and its diagnostics come from parsing its own slice of the text with the same functions
 * (parse/json-text), placed where the slice is; at the end the whole text is parsed by
 * {@link parsePlan}, whose result is the authoritative one.
 */
import type { Diagnostic } from '../diagnostics.js';
import { type Limits, resolveLimits } from '../limits.js';
import {
  parsePlan,
  type ParsePlanResult,
  positionDiagnostics,
  readJsonText,
  textTooLong,
} from '../parse/index.js';
import { SourceText } from '../text/index.js';
import { BoundaryScanner, type ClosedElement } from './boundary-scanner.js';
import { TextChunks } from './text-chunks.js';
import { valueEnd } from './value-end.js';
import { checkOptions, type OptionSpec } from '../option-keys.js';

export interface PlanTextReaderOptions {
  /**
   * Which documents are read: `any`, the five shapes (bare call array, plan message, solution,
   * context array, request), recognised from the text as it comes (a request's calls are handed
   * out at the end, read whole); `solution`, only a solution
   * `{"calls": [...], "output": ...}` (what `solve()` asks a model for): an array's elements or a
   * plan message's calls are then never handed out early.
   * @default 'any'
   */
  readonly shape?: 'any' | 'solution';
  /**
   * Name of the document in diagnostics.
   * @default '<input>'
   */
  readonly source?: string;
  /**
   * Bounds on the document; see {@link Limits}.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Partial<Limits>;
}

/** One call of the document, read from its own text. */
export interface StreamedCall {
  /** Its position in the calls array. */
  readonly index: number;
  /** The call as parsed: the value the whole document's parse gives; null when its own text is not JSON. */
  readonly value: unknown;
  /** Offsets of its text in the whole document (after a leading byte order mark). */
  readonly start: number;
  readonly end: number;
  /** Its pointer in the document: `/calls/3`, `/3`, `/2/plan/0`. */
  readonly pointer: string;
  /** The problems of its own text (E_JSON, W_JSON_EXTENSION, E_DUPLICATE_KEY), as parsePlan reports them for the whole document. */
  readonly diagnostics: Diagnostic[];
}

/** What {@link PlanTextReader.end} returns. */
export interface PlanTextEnd {
  /** The calls not handed out yet: all of a document read whole (a lazy plan message), none of one that did not parse. */
  readonly calls: StreamedCall[];
  /** parsePlan over the whole text: the document and the authoritative diagnostics. */
  readonly parsed: ParsePlanResult;
  /** The whole text, without a leading byte order mark (the offsets of the calls point into it). */
  readonly text: string;
  /**
   * False when calls were handed out during the stream that are not the first calls of the parsed
   * document: a calls array written twice (a repeated key; JSON keeps the last), or a context
   * array's plan whose array turned out to be a bare call array; or the document did not parse.
   * True when no call was handed out early, or every one is the document's.
   */
  readonly consistent: boolean;
}

/** Where the recorded elements of one calls array are. */
type Recorded = ClosedElement[];

/**
 * Turns a stream of plan text into calls as each closes.
 *
 * A call is handed out when its closing `}` has been read (a call written as a string, number
 * or literal, which never compiles, when the `,` or `]` after it has been read). Only when
 * running it early is safe: every call of a bare call array and of a solution; the calls of a
 * plan message (alone or in a context array) only when its `"type": "plan"` and `"mode":
 * "eager"` were read before its `"plan"` key (a later `"mode": "lazy"` would come too late), else
 * at {@link PlanTextReader.end}. A context array's plan calls stop being handed out if the array
 * turns out to be a bare call array after all (an element that is not a message); what was handed
 * out before that, and anything else the whole text says, is in `end().parsed`, which is the
 * authority: a consumer that ran calls early checks it.
 */
const PLAN_TEXT_READER_OPTIONS: OptionSpec<PlanTextReaderOptions> = {
  shape: { oneOf: ['any', 'solution'] },
  source: 'string',
  limits: 'any',
};

export class PlanTextReader {
  readonly #limits: Limits;
  readonly #name: string;
  readonly #scanner: BoundaryScanner;
  readonly #chunks = new TextChunks();
  readonly #closed: ClosedElement[] = [];
  /** The elements of every calls array, by pointer (a repeated key starts its array again). */
  readonly #recorded = new Map<string, Recorded>();
  #received = 0;
  #bom = false;
  #tooLong = false;
  #ended = false;
  /** The array calls were handed out from, and how many. */
  #handedFrom: string | null = null;
  #handed = 0;
  /** The root array: a bare call array once an element is not a message; else it may be a context. */
  #rootIsCalls = false;
  #planMessages = 0;
  /** Set when the text took a turn that makes early calls unsafe: nothing more is handed out. */
  #stopped = false;
  /** Set when calls already handed out turned out not to be the document's. */
  #diverged = false;

  constructor(options: PlanTextReaderOptions = {}) {
    checkOptions('PlanTextReader', options, PLAN_TEXT_READER_OPTIONS);
    this.#limits = resolveLimits(options.limits);
    this.#name = options.source ?? '<input>';
    this.#scanner = new BoundaryScanner((options.shape ?? 'any') === 'any');
  }

  /**
   * More text. Returns the calls it closed, in order. Never throws on bad input. Linear in the
   * chunk's length (and in the closed calls' lengths): nothing before is read again.
   * @throws {Error} when called after {@link PlanTextReader.end}.
   */
  push(text: string): StreamedCall[] {
    if (this.#ended) throw new Error('PlanTextReader.push() after end()');
    if (this.#tooLong) {
      // Counted, so that end() says how long the text was as parsePlan does; nothing is kept.
      this.#received += text.length;
      return [];
    }
    if (text.length === 0) return [];
    let chunk = text;
    if (this.#received === 0 && chunk.charCodeAt(0) === 0xfeff) {
      this.#bom = true;
      chunk = chunk.slice(1);
    }
    this.#received += text.length;
    if (this.#received > this.#limits.maxTextLength) {
      // Past the limit nothing more is kept or read: end() reports E_LIMIT as parsePlan does.
      this.#tooLong = true;
      return [];
    }
    this.#chunks.add(chunk);
    this.#scanner.scan(chunk, this.#closed);
    if (this.#closed.length === 0) return [];
    const out: StreamedCall[] = [];
    for (const element of this.#closed) this.#take(element, out);
    this.#closed.length = 0;
    return out;
  }

  /** True once the text is longer than limits.maxTextLength: the rest need not be read (end() reports E_LIMIT). */
  get overLimit(): boolean {
    return this.#tooLong;
  }

  /** The text ended: the calls not handed out yet, and parsePlan's result over the whole text. */
  end(): PlanTextEnd {
    if (this.#ended) throw new Error('PlanTextReader.end() called twice');
    this.#ended = true;
    const text = this.#chunks.text();
    if (this.#tooLong) {
      const diagnostics = positionDiagnostics(
        [textTooLong(this.#received, this.#limits)],
        SourceText.fromText(text, this.#name),
      );
      return { calls: [], parsed: { document: null, diagnostics }, text, consistent: this.#handed === 0 };
    }
    const parsed = parsePlan(this.#bom ? `\ufeff${text}` : text, {
      source: this.#name,
      limits: this.#limits,
    });
    const consistent =
      this.#handed === 0 ||
      (parsed.document !== null && !this.#diverged && this.#handedFrom === parsed.document.callsPointer);
    return { calls: consistent ? this.#rest(parsed) : [], parsed, text, consistent };
  }

  #take(element: ClosedElement, out: StreamedCall[]): void {
    const { array } = element;
    let recorded = this.#recorded.get(array.pointer);
    if (element.index === 0 || !recorded) {
      recorded = [];
      this.#recorded.set(array.pointer, recorded);
      // A calls array written again (a repeated key): JSON keeps the last, so what was handed out is not it.
      if (this.#handedFrom === array.pointer && element.index === 0) this.#stopped = this.#diverged = true;
    }
    if (recorded.length <= this.#limits.maxCalls) recorded.push(element);
    if (array.root) {
      if (element.escapedKey) this.#stopped = true;
      if (element.planMessage) this.#planMessages++;
      if (this.#rootIsCalls || element.message) {
        if (this.#rootIsCalls) this.#handOut(element, out);
        return;
      }
      // Not a message: the root is a bare call array, and every element so far is a call.
      if (this.#handedFrom !== null) this.#stopped = this.#diverged = true;
      this.#rootIsCalls = true;
      for (const earlier of recorded) this.#handOut(earlier, out);
      return;
    }
    if (array.pointer === '/calls' || (array.eagerPlan && this.#safeContextPlan(array.message))) {
      this.#handOut(element, out);
    }
  }

  /** A context message's plan is run early only while the array still reads as a context, and only the first plan message's. */
  #safeContextPlan(message: number): boolean {
    if (message < 0) return true;
    return !this.#rootIsCalls && this.#planMessages === 0;
  }

  #handOut(element: ClosedElement, out: StreamedCall[]): void {
    if (this.#stopped) return;
    const from = element.array.pointer;
    if (this.#handedFrom !== null && this.#handedFrom !== from) {
      this.#stopped = true;
      return;
    }
    if (element.index !== this.#handed || this.#handed >= this.#limits.maxCalls) return;
    this.#handedFrom = from;
    this.#handed++;
    out.push(this.#read(element));
  }

  /** A call read from its own slice of the text, placed in the document. */
  #read(element: ClosedElement): StreamedCall {
    const text = this.#chunks.slice(element.start, element.end);
    const source = SourceText.fromText(text, this.#name);
    const pointer = `${element.array.pointer}/${element.index}`;
    const read = readJsonText(text, source, this.#limits, {
      pointer,
      place: (line, column) =>
        line === 1
          ? { line: element.line, column: element.column + column - 1 }
          : { line: element.line + line - 1, column },
    });
    const pending = 'problem' in read ? [read.problem] : read.pending;
    return {
      index: element.index,
      value: 'problem' in read ? null : read.value,
      start: element.start,
      end: element.end,
      pointer,
      diagnostics: positionDiagnostics(pending, source),
    };
  }

  /** The document's calls not handed out, read from their slices (located in the text when the scan lost them). */
  #rest(parsed: ParsePlanResult): StreamedCall[] {
    const document = parsed.document;
    if (!document) return [];
    const recorded = this.#recorded.get(document.callsPointer) ?? [];
    const out: StreamedCall[] = [];
    if (recorded.length === document.calls.length && recordedInOrder(recorded)) {
      for (let i = this.#handed; i < recorded.length; i++) out.push(this.#read(recorded[i]!));
      return out;
    }
    const pointers: string[] = [];
    for (let i = this.#handed; i < document.calls.length; i++) pointers.push(`${document.callsPointer}/${i}`);
    const places = document.source.locateAll(pointers.map((pointer) => ({ pointer })));
    const text = document.source.text;
    pointers.forEach((pointer, k) => {
      const at = places[k]!.offset;
      const value = document.calls[this.#handed + k];
      // Its own slice and the whole parse's diagnostics under it, as a call read from its slice has.
      const diagnostics = parsed.diagnostics.filter(
        (d) => d.pointer === pointer || d.pointer.startsWith(`${pointer}/`),
      );
      out.push({ index: this.#handed + k, value, start: at, end: valueEnd(text, at), pointer, diagnostics });
    });
    return out;
  }
}

function recordedInOrder(recorded: Recorded): boolean {
  for (let i = 0; i < recorded.length; i++) if (recorded[i]!.index !== i) return false;
  return true;
}
