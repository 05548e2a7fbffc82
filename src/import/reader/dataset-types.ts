/**
 * The datasets' type names to JSON Schema. NESTFUL and NesTools write Python's names (`str`,
 * `int`, `float`, `bool`, `list`, `dict`) or JSON's (`string`, `integer`, `number`, `boolean`,
 * `array`, `object`), in any case (`String`, `Number`). A name outside both is not guessed:
 * the parameter is left untyped and the caller warns (`W_IMPORT_TYPE`).
 */
const TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ['str', 'string'],
  ['string', 'string'],
  ['int', 'integer'],
  ['integer', 'integer'],
  ['float', 'number'],
  ['number', 'number'],
  ['double', 'number'],
  ['bool', 'boolean'],
  ['boolean', 'boolean'],
  ['list', 'array'],
  ['array', 'array'],
  ['dict', 'object'],
  ['object', 'object'],
]);

/** The JSON Schema type of a dataset's type name, or undefined when it has none. */
export function jsonSchemaType(typeName: unknown): string | undefined {
  if (typeof typeName !== 'string') return undefined;
  return TYPE_NAMES.get(typeName.trim().toLowerCase());
}
