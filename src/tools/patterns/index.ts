/**
 * JSON Schema patterns on a linear-time engine: a pattern's ECMAScript syntax translated for
 * RE2 (js-pattern*), compiled and cached (linear-regexp), refused with a reason when it cannot
 * be matched without backtracking or is too large.
 */
export {
  type LinearRegExp,
  UnsupportedPatternError,
  compileLinearRegExp,
  isLinearPattern,
  linearRegExpEngine,
  quotePattern,
  unsupportedReason,
} from './linear-regexp.js';
