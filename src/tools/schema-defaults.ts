/**
 * JSON Schema `default`s filled into a tool's arguments before it runs, as ajv's `useDefaults`
 * would: a property that `properties` declares with a `default` and that the arguments lack gets
 * a copy of that default; the same holds inside a nested object property (`properties` below
 * `properties`), inside each object of an array property (`items` as one schema), and in the
 * members of a schema's own `allOf`. As with ajv, defaults inside `anyOf`, `oneOf`, `not`, `if`/`then`/`else`
 * are not applied (which branch holds is not known before validation); unlike ajv, `$ref` is
 * not followed.
 *
 * The schemas are compiled once per tool, when the registry is built, into a small tree of what
 * to fill ({@link ArgumentDefaults.of}); a tool whose schema has no default gets none, so its
 * calls pay nothing. Filling is copy-on-write: the arguments object given is the call's own
 * (resolving made it), but what lies inside may be the plan's literal or a value shared with the
 * run's state, so every nested object or array on the way to a default is copied before it
 * changes, never written in place. Both walks use a stack, not recursion: the schema is JSON
 * within the limits (the registry checks it first) and the arguments are bounded values.
 */
import type { JsonObject } from '../language/document.js';
import { cloneJson, setOwnProperty } from '../language/json/index.js';
import { escapePointerToken } from '../language/pointer.js';
import type { JsonSchema } from './tool.js';

/** What to fill in one object (or, through `items`, in each object of one array). */
interface DefaultsNode {
  /** Properties with a default: their names and defaults (JSON, never handed out as is). */
  readonly defaults: readonly (readonly [string, unknown])[];
  /** Properties whose own schema fills something below them. */
  readonly nested: readonly (readonly [string, DefaultsNode])[];
  /** What to fill in each object of the array this node's value is, when it is one. */
  readonly items: DefaultsNode | null;
}

/** Called with each default filled in: its pointer inside the arguments, and the value. */
export type OnDefaultFilled = (pointer: string, value: unknown) => void;

/** A tool's `inputSchema` defaults, compiled once; see the file's note. */
export class ArgumentDefaults {
  private constructor(private readonly root: DefaultsNode) {}

  /** The defaults of a schema, or null when it declares none that would ever be filled. */
  static of(schema: JsonSchema | undefined): ArgumentDefaults | null {
    const root = compileDefaults(schema);
    return root === null ? null : new ArgumentDefaults(root);
  }

  /**
   * `args` with the missing defaulted properties filled in. `args` itself is changed (it must be
   * the caller's own copy); nested objects and arrays are copied before they change.
   */
  fill(args: JsonObject, onFilled?: OnDefaultFilled): JsonObject {
    const stack: [Record<string, unknown>, DefaultsNode, string][] = [[args, this.root, '']];
    while (stack.length > 0) {
      const [target, node, pointer] = stack.pop()!;
      for (const [name, value] of node.defaults) {
        if (Object.hasOwn(target, name) && target[name] !== undefined) continue;
        const copy = cloneJson(value);
        setOwnProperty(target, name, copy);
        onFilled?.(`${pointer}/${escapePointerToken(name)}`, value);
      }
      for (const [name, child] of node.nested) {
        if (!Object.hasOwn(target, name)) continue;
        const value = target[name];
        const at = `${pointer}/${escapePointerToken(name)}`;
        if (Array.isArray(value)) {
          if (child.items === null) continue;
          const array = value.slice();
          setOwnProperty(target, name, array);
          for (let k = 0; k < array.length; k++) {
            const element: unknown = array[k];
            if (!isPlainObject(element)) continue;
            const copy = { ...element };
            array[k] = copy;
            stack.push([copy, child.items, `${at}/${k}`]);
          }
        } else if (isPlainObject(value) && (child.defaults.length > 0 || child.nested.length > 0)) {
          const copy = { ...value };
          setOwnProperty(target, name, copy);
          stack.push([copy, child, at]);
        }
      }
    }
    return args;
  }

  /**
   * The defaults filled into `args`, by pointer, without changing `args` (the dry run shows
   * them); empty when nothing is missing.
   */
  filledInto(args: JsonObject): Record<string, unknown> {
    const filled: Record<string, unknown> = {};
    this.fill({ ...args }, (pointer, value) => setOwnProperty(filled, pointer, cloneJson(value)));
    return filled;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One schema being compiled, with where its node goes once its children are done. */
interface Pending {
  readonly schemas: readonly Record<string, unknown>[];
  readonly parent: number;
  /** The property it is under in its parent, or null for the parent's `items`. */
  readonly name: string | null;
  readonly defaults: [string, unknown][];
  readonly nested: [string, DefaultsNode][];
  items: DefaultsNode | null;
}

/**
 * Breadth-first over the schema's `properties` / `items` / `allOf`, then back from the last
 * node to the first (children always come after their parent), keeping a node only when it or
 * something below it fills a default.
 */
function compileDefaults(schema: JsonSchema | undefined): DefaultsNode | null {
  if (!isPlainObject(schema)) return null;
  const pending: Pending[] = [
    { schemas: withAllOf(schema), parent: -1, name: null, defaults: [], nested: [], items: null },
  ];
  for (let i = 0; i < pending.length; i++) {
    const { schemas, defaults } = pending[i]!;
    const properties: [string, Record<string, unknown>][] = [];
    const items: Record<string, unknown>[] = [];
    for (const part of schemas) {
      if (isPlainObject(part.properties)) {
        for (const name of Object.keys(part.properties)) {
          const property = part.properties[name];
          if (!isPlainObject(property)) continue;
          if (Object.hasOwn(property, 'default')) defaults.push([name, property.default]);
          properties.push([name, property]);
        }
      }
      if (isPlainObject(part.items)) items.push(part.items);
    }
    for (const [name, property] of properties) {
      pending.push({ schemas: withAllOf(property), parent: i, name, defaults: [], nested: [], items: null });
    }
    if (items.length > 0) {
      const schemasOfItems = items.flatMap(withAllOf);
      pending.push({ schemas: schemasOfItems, parent: i, name: null, defaults: [], nested: [], items: null });
    }
  }
  let root: DefaultsNode | null = null;
  for (let i = pending.length - 1; i >= 0; i--) {
    const { defaults, nested, items, parent, name } = pending[i]!;
    if (defaults.length === 0 && nested.length === 0 && items === null) continue;
    const node: DefaultsNode = { defaults, nested, items };
    if (parent < 0) root = node;
    else if (name === null) pending[parent]!.items = node;
    else pending[parent]!.nested.push([name, node]);
  }
  return root;
}

/** A schema and the object members of its own `allOf` (one level: an `allOf` inside a member is not looked into). */
function withAllOf(schema: Record<string, unknown>): Record<string, unknown>[] {
  const out = [schema];
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf) if (isPlainObject(member)) out.push(member);
  return out;
}
