/** Re-exported from the language folder, where every layer can reach it. */
export { describeValue } from '../language/describe-value.js';
