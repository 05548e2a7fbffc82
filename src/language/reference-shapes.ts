/** The shapes the reference scanner (reference-scanner.ts) produces. */
import type { DiagnosticCode } from './diagnostics.js';
import type { PathSegment, Root, Wildcard } from './paths.js';

export interface Reference {
  readonly root: Root;
  readonly segments: readonly (PathSegment | Wildcard)[];
  /** The reference as written. */
  readonly text: string;
  /** Offset of its `†` in the string. */
  readonly start: number;
}

export type Operator = '||' | '&&';

export interface Expression {
  /** `null` for a single reference. */
  readonly op: Operator | null;
  readonly refs: readonly Reference[];
}

export type ParsedString =
  /** An ordinary string. `suspiciousDagger` is the offset of a `†` that looks like a reference. */
  | { readonly kind: 'text'; readonly value: string; readonly suspiciousDagger?: number }
  /** `††...`: literal text with one leading `†` dropped. */
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'expression'; readonly expression: Expression }
  | {
      readonly kind: 'error';
      readonly code: Extract<
        DiagnosticCode,
        | 'E_REF_SYNTAX'
        | 'E_REF_ROOT'
        | 'E_REF_FORBIDDEN'
        | 'E_MIXED_OPS'
        | 'E_FOR_EACH_REF'
        | 'E_REF_SELECTION'
      >;
      readonly message: string;
      readonly hint?: string;
      /** Offset inside the string where the problem is. */
      readonly offset: number;
    };

export type ParseError = Extract<ParsedString, { kind: 'error' }>;
