/**
 * Where the calls of a plan text begin and end, found while the text is still arriving. The
 * scanner reads each character once and keeps its whole state between chunks (inside a string,
 * after a backslash, inside a comment, the open containers), so a text fed one character at a
 * time costs what it costs fed whole. It does not parse values: it finds the slice of each
 * element of the arrays that may hold calls, and the few keys that say which array that is
 * (`calls`, `plan`, `type`, `mode`, `_tool`); the slices are parsed by the same functions that
 * parse a whole document.
 *
 * Bounded: frames are kept for the three outer levels only (a call array is never deeper), every
 * level below is a counter, captured keys are cut at a few characters; no recursion, no regex.
 * It trusts nothing: on text that is not JSON it keeps going without throwing, and the whole
 * parse at the end says what is wrong.
 */

/** An array whose elements may be calls. */
export interface CallsArray {
  /** Its pointer: `` (the root array), `/calls`, `/plan`, `/3/plan`. */
  readonly pointer: string;
  /** The root array of an `any` document: a bare call array or a context array. */
  readonly root: boolean;
  /** The plan array of a plan message that said `"type": "plan"` and `"mode": "eager"` before `"plan"`. */
  readonly eagerPlan: boolean;
  /** For the plan array of a context array's message: the message's index; else -1. */
  readonly message: number;
}

/** One element of a calls array, closed. */
export interface ClosedElement {
  readonly array: CallsArray;
  readonly index: number;
  /** Offsets of its text: from its first character to just past its last. */
  readonly start: number;
  readonly end: number;
  /** Line and column (1-based) of its first character. */
  readonly line: number;
  readonly column: number;
  /** For an element of the root array: whether it reads as a context message (an object with a string `type` and no `_tool`). */
  readonly message: boolean;
  /** For an element of the root array: it said `"type": "plan"`. */
  readonly planMessage: boolean;
  /** A key was written with an escape, so the keys the scanner looks for may be hidden in it. */
  readonly escapedKey: boolean;
}

const enum Lex {
  Value,
  String,
  Escape,
  Slash,
  LineComment,
  BlockComment,
  BlockStar,
}

const enum Capture {
  None,
  Key,
  Value,
}

/** The deepest level with a frame: root (1), its member or element (2), a context message's plan (3). */
const FRAMED = 3;
/** Keys and values the scanner compares are short; longer ones are cut (and never match). */
const CAPTURE_LENGTH = 8;

interface Frame {
  object: boolean;
  /** Object: the next string is a key. */
  expectKey: boolean;
  /** Object: a colon was read and the member's value has not begun. */
  afterColon: boolean;
  /** Object: the key of the member being read ('' when not captured). */
  key: string;
  /** Object at levels 1 and 2: it may be a plan message or a context message. */
  message: boolean;
  typeString: boolean;
  typePlan: boolean;
  modeEager: boolean;
  sawTool: boolean;
  escapedKey: boolean;
  /** Array: the calls array it is, or null. */
  calls: CallsArray | null;
  index: number;
  /** Array: where the current element began (-1: between elements). */
  elementStart: number;
  elementLine: number;
  elementColumn: number;
  /** The element open is a string, number or literal: it ends at the next `,` or `]`. */
  elementScalar: boolean;
  /** The element just closed was a message object (set by the object's frame when it closes). */
  closedMessage: boolean;
  closedPlanMessage: boolean;
  closedEscapedKey: boolean;
}

function newFrame(): Frame {
  return {
    object: false,
    expectKey: false,
    afterColon: false,
    key: '',
    message: false,
    typeString: false,
    typePlan: false,
    modeEager: false,
    sawTool: false,
    escapedKey: false,
    calls: null,
    index: 0,
    elementStart: -1,
    elementLine: 0,
    elementColumn: 0,
    elementScalar: false,
    closedMessage: false,
    closedPlanMessage: false,
    closedEscapedKey: false,
  };
}

export class BoundaryScanner {
  readonly #any: boolean;
  #lex = Lex.Value;
  #depth = 0;
  readonly #frames: Frame[] = [newFrame(), newFrame(), newFrame()];
  /** Offset of the next character to read. */
  #offset = 0;
  #line = 1;
  #lineStart = 0;
  /** Just past the last character that was not space or comment. */
  #lastEnd = 0;
  #slashOffset = 0;
  #capture = Capture.None;
  #captured = '';
  #capturedEscape = false;
  /** Set once the root value has closed, or the brackets stopped matching: nothing more is a call. */
  #done = false;

  /** @param any `true` for the four shapes, `false` for a solution only. */
  constructor(any: boolean) {
    this.#any = any;
  }

  /** Reads `text` (the next characters of the document), appending each element that closes to `out`. */
  scan(text: string, out: ClosedElement[]): void {
    const n = text.length;
    for (let k = 0; k < n; k++) {
      const c = text.charCodeAt(k);
      const offset = this.#offset + k;
      switch (this.#lex) {
        case Lex.String:
          if (c === 0x22) {
            this.#lex = Lex.Value;
            this.#lastEnd = offset + 1;
            this.#endString();
          } else if (c === 0x5c) {
            this.#lex = Lex.Escape;
            this.#capturedEscape = true;
          } else if (this.#capture !== Capture.None && this.#captured.length <= CAPTURE_LENGTH) {
            this.#captured += text[k];
          }
          break;
        case Lex.Escape:
          this.#lex = Lex.String;
          break;
        case Lex.LineComment:
          if (c === 0x0a || c === 0x0d) this.#lex = Lex.Value;
          break;
        case Lex.BlockComment:
          if (c === 0x2a) this.#lex = Lex.BlockStar;
          break;
        case Lex.BlockStar:
          this.#lex = c === 0x2f ? Lex.Value : c === 0x2a ? Lex.BlockStar : Lex.BlockComment;
          break;
        case Lex.Slash:
          if (c === 0x2f) this.#lex = Lex.LineComment;
          else if (c === 0x2a) this.#lex = Lex.BlockComment;
          else {
            // Not a comment: the slash was a character of its own (the text is not JSON).
            this.#lex = Lex.Value;
            this.#significant(0x2f, this.#slashOffset, out);
            this.#value(c, offset, out);
          }
          break;
        default:
          this.#value(c, offset, out);
      }
      if (c === 0x0a) {
        this.#line++;
        this.#lineStart = offset + 1;
      }
    }
    this.#offset += n;
  }

  #value(c: number, offset: number, out: ClosedElement[]): void {
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return;
    if (c === 0x2f) {
      this.#lex = Lex.Slash;
      this.#slashOffset = offset;
      return;
    }
    this.#significant(c, offset, out);
  }

  /** A character that is not space or comment, at `offset`. */
  #significant(c: number, offset: number, out: ClosedElement[]): void {
    const frame = this.#depth > 0 && this.#depth <= FRAMED ? this.#frames[this.#depth - 1]! : null;
    if (c === 0x7d || c === 0x5d) {
      this.#close(offset, out);
      this.#lastEnd = offset + 1;
      return;
    }
    if (c === 0x2c) {
      if (frame?.object) {
        frame.expectKey = true;
        frame.key = '';
      } else if (frame) this.#endScalar(frame, out);
      return;
    }
    if (c === 0x3a) {
      if (frame?.object) {
        frame.expectKey = false;
        frame.afterColon = true;
      }
      return;
    }
    // A value (or a key) begins, or goes on (the digits of a number, the letters of `true`).
    if (frame) this.#valueBegins(frame, c, offset);
    this.#lastEnd = offset + 1;
    if (c === 0x22) {
      this.#lex = Lex.String;
      this.#startString(frame);
    } else if (c === 0x7b || c === 0x5b) this.#open(c === 0x7b, frame);
  }

  #valueBegins(frame: Frame, c: number, offset: number): void {
    if (frame.object) {
      if (!frame.afterColon) return;
      frame.afterColon = false;
      if (frame.key === 'type') frame.typeString = frame.typePlan = false;
      else if (frame.key === 'mode') frame.modeEager = false;
      return;
    }
    if (frame.elementStart >= 0 || frame.calls === null) return;
    frame.elementStart = offset;
    frame.elementLine = this.#line;
    frame.elementColumn = offset - this.#lineStart + 1;
    frame.elementScalar = c !== 0x7b && c !== 0x5b;
    frame.closedMessage = frame.closedPlanMessage = frame.closedEscapedKey = false;
  }

  #startString(frame: Frame | null): void {
    this.#capture = Capture.None;
    if (!frame?.object || !frame.message) return;
    if (frame.expectKey) this.#capture = Capture.Key;
    else if (frame.key === 'type' || frame.key === 'mode') this.#capture = Capture.Value;
    this.#captured = '';
    this.#capturedEscape = false;
  }

  #endString(): void {
    const capture = this.#capture;
    if (capture === Capture.None) return;
    this.#capture = Capture.None;
    const frame = this.#frames[this.#depth - 1]!;
    const text = this.#capturedEscape ? '' : this.#captured;
    if (capture === Capture.Key) {
      frame.key = text;
      if (this.#capturedEscape) frame.escapedKey = true;
      if (text === '_tool') frame.sawTool = true;
    } else if (frame.key === 'type') {
      frame.typeString = true;
      frame.typePlan = text === 'plan';
    } else frame.modeEager = text === 'eager';
  }

  #open(object: boolean, parent: Frame | null): void {
    this.#depth++;
    if (this.#depth > FRAMED) return;
    const frame = this.#frames[this.#depth - 1]!;
    frame.object = object;
    frame.expectKey = object;
    frame.afterColon = false;
    frame.key = '';
    frame.typeString = frame.typePlan = frame.modeEager = frame.sawTool = frame.escapedKey = false;
    frame.calls = null;
    frame.index = 0;
    frame.elementStart = -1;
    frame.message = object && (this.#depth === 1 || (this.#depth === 2 && parent?.calls?.root === true));
    if (object || this.#done) return;
    if (this.#depth === 1) {
      if (this.#any) frame.calls = { pointer: '', root: true, eagerPlan: false, message: -1 };
    } else if (parent?.object && parent.message) {
      const plan = this.#any && parent.key === 'plan';
      const eagerPlan = plan && parent.typePlan && parent.modeEager;
      if (this.#depth === 2 && (parent.key === 'calls' || plan)) {
        frame.calls = { pointer: `/${parent.key}`, root: false, eagerPlan, message: -1 };
      } else if (this.#depth === 3 && plan) {
        const index = this.#frames[0]!.index;
        frame.calls = { pointer: `/${index}/plan`, root: false, eagerPlan, message: index };
      }
    }
  }

  #close(offset: number, out: ClosedElement[]): void {
    if (this.#depth === 0) {
      this.#done = true;
      return;
    }
    if (this.#depth <= FRAMED) {
      const frame = this.#frames[this.#depth - 1]!;
      if (!frame.object) this.#endScalar(frame, out);
      if (this.#depth === 2 && frame.message) {
        const parent = this.#frames[0]!;
        parent.closedMessage = frame.typeString && !frame.sawTool;
        parent.closedPlanMessage = frame.typePlan;
        parent.closedEscapedKey = frame.escapedKey;
      }
    }
    this.#depth--;
    if (this.#depth === 0) {
      this.#done = true;
      return;
    }
    if (this.#depth > FRAMED) return;
    const parent = this.#frames[this.#depth - 1]!;
    if (!parent.object && parent.elementStart >= 0 && !parent.elementScalar) {
      this.#emit(parent, offset + 1, out);
    }
  }

  /** A `,` or `]` in an array: a string, number or literal element open there has ended. */
  #endScalar(frame: Frame, out: ClosedElement[]): void {
    if (frame.elementStart >= 0 && frame.elementScalar) this.#emit(frame, this.#lastEnd, out);
    frame.index++;
    frame.elementStart = -1;
  }

  #emit(frame: Frame, end: number, out: ClosedElement[]): void {
    const array = frame.calls!;
    const closedObject = !frame.elementScalar;
    out.push({
      array,
      index: frame.index,
      start: frame.elementStart,
      end,
      line: frame.elementLine,
      column: frame.elementColumn,
      message: array.root && closedObject && frame.closedMessage,
      planMessage: array.root && closedObject && frame.closedPlanMessage,
      escapedKey: array.root && closedObject && frame.closedEscapedKey,
    });
    // The index moves on at the `,` (or `]`) after the element; a container element is done.
    if (closedObject) frame.elementStart = -2;
  }
}
