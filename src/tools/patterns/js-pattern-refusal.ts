/**
 * Why a JSON Schema pattern cannot be translated to RE2 syntax: the pass in js-pattern.ts throws
 * a {@link Refusal} where it stops and turns it into its result. The sentences live here, apart
 * from the pass, so that each reason is worded once and the pass reads as the grammar it walks.
 */

/** A reason the pattern cannot be translated, thrown inside the pass and caught in its `run`. */
export class Refusal {
  constructor(readonly reason: string) {}
}

/** JavaScript's parser rejects it. */
export function invalid(what: string): Refusal {
  return new Refusal(`is not a valid pattern: ${what}`);
}

export function invalidEscape(text: string, at: number): Refusal {
  return invalid(
    `${text} at character ${at + 1} is not an escape JavaScript allows with the u flag, which JSON Schema patterns use`,
  );
}

export function backreference(text: string, at: number): Refusal {
  return new Refusal(
    `uses a backreference ${text} at character ${at + 1}, which the linear-time engine cannot match; rewrite it without backreferences`,
  );
}

export function loneSurrogate(text: string, at: number): Refusal {
  return new Refusal(
    `matches a lone surrogate ${text} at character ${at + 1}, which the linear-time engine cannot match (it reads text as whole code points)`,
  );
}
