export {
  type CompileOptions,
  type CompileResult,
  type CompileSuccess,
  type CompileFailure,
  compile,
} from './compile.js';
export { editDistance, nearest } from './nearest.js';
export type * from './types.js';
export { FOR_EACH_POINTER } from './types.js';
