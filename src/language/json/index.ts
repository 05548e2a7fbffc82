/**
 * JSON values planmode did not make: checked, copied and sized within limits without
 * recursion (json-walk), copied exactly, and written with own-property semantics so that a key
 * such as `__proto__` stays data.
 */
export { exactCopy } from './exact-copy.js';
export {
  type JsonProblem,
  type JsonWalkOptions,
  checkJson,
  cloneJson,
  copyJson,
  jsonSize,
} from './json-value.js';
export { setOwnProperty } from './set-own-property.js';
export { argumentsJson, eventJson, prettyJsonPreview, sharedJson } from './shared-json.js';
export {
  firstLine,
  jsonWithStandIns,
  REPLACED_FIELDS,
  type StandInOptions,
  type Unserializable,
} from './stand-ins.js';
