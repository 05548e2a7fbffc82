/**
 * A call's `_outputPath` and `_output`: the output path parsed (once per distinct string, by
 * the compile's facts) and held to what a write may be (state only, no `[*]`, within the depth
 * and index limits), and `_output` bounded like any tool's result. The path limits are also
 * what the argument scan holds each reference to.
 */
import { error, type DiagnosticSink } from '../../language/diagnostics.js';
import { describeJson } from '../../language/document.js';
import { firstSelector, type Path, selectorText, type Wildcard } from '../../language/paths.js';
import { checkJson } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import type { ParsedString, Reference, StringParser } from '../../language/reference.js';
import { type ReferenceFacts, UNCHECKED } from '../storage/index.js';
import { place } from './call-place.js';
import type { OutputPath } from '../types.js';

type ParseError = Extract<ParsedString, { kind: 'error' }>;

/** What an output path is read with: a narrow view of ReadCallOptions (read-call.ts). */
export interface OutputPathReading {
  readonly parser: StringParser;
  readonly limits: Limits;
  readonly facts: ReferenceFacts;
}

export function readOutputPath(
  raw: unknown,
  { parser, limits, facts }: OutputPathReading,
  diagnostics: DiagnosticSink,
): OutputPath | null {
  const hint =
    '_outputPath names where the result goes: "†state.result", "†state.ok || †state.error" or "†state.a && †state.b"';
  if (typeof raw !== 'string') {
    diagnostics.push(
      error(
        'E_OUTPUT_PATH',
        place.inside('/_outputPath'),
        `_outputPath must be a string, not ${describeJson(raw)}`,
        {
          call: place.id,
          hint,
        },
      ),
    );
    return null;
  }
  if (!raw.startsWith('†') || raw.startsWith('††')) {
    diagnostics.push(
      error(
        'E_OUTPUT_PATH',
        place.inside('/_outputPath'),
        `_outputPath must be a reference to state, not text`,
        {
          call: place.id,
          hint,
          offset: 0,
        },
      ),
    );
    return null;
  }
  // Numbered once: the calls that read this path later find it parsed and checked.
  // Parsed at once when new (an output path is mostly new): not noted as unparsed first.
  const n = parser.numberOf(raw);
  const scanned = parser.parsed(n);
  const parsed = scanned.kind === 'expression' ? scanned.expression : (scanned as ParseError);
  if (!('kind' in parsed)) {
    if (facts.kindOf(n) === UNCHECKED) {
      if (!checkPathLimits(parsed.refs, '/_outputPath', limits, diagnostics)) return null;
      facts.fits(n, parsed, raw);
    }
    facts.output = n;
  }
  if ('kind' in parsed) {
    diagnostics.push(
      error(parsed.code, place.inside('/_outputPath'), parsed.message, {
        call: place.id,
        offset: parsed.offset,
        ...(parsed.hint && { hint: parsed.hint }),
      }),
    );
    return null;
  }
  let ok = true;
  for (const ref of parsed.refs) {
    if (ref.root !== 'state') {
      diagnostics.push(
        error(
          'E_OUTPUT_PATH',
          place.inside('/_outputPath'),
          `_outputPath cannot write ${ref.text}: input is read-only`,
          {
            call: place.id,
            offset: ref.start,
            hint: `write to state instead: "†state${ref.text.slice('†input'.length)}"`,
          },
        ),
      );
      ok = false;
    } else if (firstSelector(ref.segments) >= 0) {
      const text = selectorText(ref.segments[firstSelector(ref.segments)] as Wildcard);
      diagnostics.push(
        error(
          'E_OUTPUT_PATH',
          place.inside('/_outputPath'),
          `_outputPath cannot use ${text}: ${ref.text} names no single place to write`,
          {
            call: place.id,
            offset: ref.start + ref.text.indexOf(text),
            hint: 'write the whole array to one path, e.g. "†state.items"',
          },
        ),
      );
      ok = false;
    }
  }
  if (!ok) return null;
  return {
    op: parsed.op,
    paths: parsed.refs as readonly Path[],
    refs: parsed.refs,
    text: raw,
  };
}

/**
 * A path may not be longer than `limits.maxDepth` segments (a write there nests as deep) nor
 * name an index past `limits.maxArrayIndex` (a write there fills the gap with holes that print
 * as null: 20 characters of plan could otherwise make megabytes of state). Reports each
 * reference over a limit at `place.inside(at)` (joined only then); true when none is.
 */
export function checkPathLimits(
  refs: readonly Reference[],
  at: string,
  limits: Limits,
  diagnostics: DiagnosticSink,
): boolean {
  let ok = true;
  for (const ref of refs) {
    if (ref.segments.length > limits.maxDepth) {
      diagnostics.push(
        error(
          'E_LIMIT',
          place.inside(at),
          `${ref.text.slice(0, 60)}… has ${ref.segments.length} segments; the limit is ${limits.maxDepth}`,
          {
            call: place.id,
            offset: ref.start,
            hint: 'use a shorter path, or raise limits.maxDepth',
          },
        ),
      );
      ok = false;
      continue;
    }
    for (const segment of ref.segments) {
      if (typeof segment === 'number' && !(segment <= limits.maxArrayIndex)) {
        diagnostics.push(
          error(
            'E_LIMIT',
            place.inside(at),
            `${ref.text} names index ${segment}; the largest index allowed is ${limits.maxArrayIndex}`,
            {
              call: place.id,
              offset: ref.start,
              hint: 'use a smaller index (or a key: ["123"]), or raise limits.maxArrayIndex',
            },
          ),
        );
        ok = false;
        break;
      }
    }
  }
  return ok;
}

/** `_output` is the model's own result: bounded like any tool's, one level inside its call. */
export function checkOutputValue(value: unknown, limits: Limits, diagnostics: DiagnosticSink): void {
  const checked = checkJson(value, { limits, depth: 1 });
  if (!('problem' in checked)) return;
  const { problem } = checked;
  diagnostics.push(
    error(
      problem.code === 'LIMIT' ? 'E_LIMIT' : 'E_SHAPE',
      place.inside(`/_output${problem.pointer}`),
      `_output ${problem.message}`,
      {
        call: place.id,
        hint: problem.hint,
      },
    ),
  );
}
