/**
 * NESTFUL's references: `"$var1.distance$"` reads field `distance` of the output of the call
 * labelled `var1`, `"$var2$"` its whole output, and paths go deeper (`$var1.author[0].id$`,
 * `$var1.Exchange Rate$`). Only a whole string is a reference; `$...$` inside longer text
 * (`"5 * $var1.Exchange Rate$"`) is an embedded one, which planmode cannot pass as data, and a
 * string that names a label with a `$` missing (`"var1.product_id$"`) is a malformed one. The
 * reading is a single pass over the string, no regular expression over it.
 */
import type { ReferenceStep } from '../reader/index.js';

/** What one argument string is. */
export type NestfulString =
  | { readonly kind: 'text' }
  | { readonly kind: 'reference'; readonly label: string; readonly steps: readonly ReferenceStep[] }
  | { readonly kind: 'embedded'; readonly labels: readonly string[]; readonly unknown: readonly string[] }
  | { readonly kind: 'malformed'; readonly label: string };

/** Labels may be written `var1` or `$var1` (NESTFUL's later files); references use the bare name. */
export function bareLabel(label: string): string {
  return label.startsWith('$') ? label.slice(1) : label;
}

/** Classifies `text` against the labels the sample's calls carry. */
export function readNestfulString(text: string, labels: ReadonlySet<string>): NestfulString {
  if (text.indexOf('$') < 0) {
    const label = leadingLabel(text, labels);
    return label !== undefined && text.length > label.length && text[label.length] === '.'
      ? { kind: 'malformed', label }
      : { kind: 'text' };
  }
  const parts = text.split('$');
  if (parts.length === 3 && parts[0] === '' && parts[2] === '' && parts[1] !== '') {
    const path = readPath(parts[1]!);
    if (path) return { kind: 'reference', ...path };
  }
  const embedded: string[] = [];
  const unknown: string[] = [];
  for (let i = 1; i < parts.length - 1; i += 2) {
    const label = leadingName(parts[i]!);
    if (label === undefined) continue;
    const list = labels.has(label) ? embedded : unknown;
    if (!list.includes(label)) list.push(label);
  }
  if (embedded.length + unknown.length > 0) return { kind: 'embedded', labels: embedded, unknown };
  const stripped = text.replace(/^\$/, '').replace(/\$$/, '');
  const label = leadingLabel(stripped, labels);
  return label !== undefined && stripped.indexOf('$') < 0 ? { kind: 'malformed', label } : { kind: 'text' };
}

/** The known label `text` starts with, followed by the end, `.` or `[`. */
function leadingLabel(text: string, labels: ReadonlySet<string>): string | undefined {
  const label = leadingName(text);
  return label !== undefined && labels.has(label) ? label : undefined;
}

/**
 * The name `text` starts with when it reads like a label (a letter or `_`, then letters,
 * digits and `_`, up to the end, a `.` or a `[`): `$5 and $10` holds no reference.
 */
function leadingName(text: string): string | undefined {
  let end = 0;
  while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
  const name = text.slice(0, end);
  return LABEL_LIKE.test(name) ? name : undefined;
}

const LABEL_LIKE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** `var1.author[0].id` to its label and steps; undefined when it is not a path. */
function readPath(body: string): { label: string; steps: ReferenceStep[] } | undefined {
  let i = 0;
  while (i < body.length && body[i] !== '.' && body[i] !== '[') i++;
  const label = body.slice(0, i);
  if (label === '') return undefined;
  const steps: ReferenceStep[] = [];
  while (i < body.length) {
    if (body[i] === '.') {
      let end = i + 1;
      while (end < body.length && body[end] !== '.' && body[end] !== '[') end++;
      const key = body.slice(i + 1, end);
      if (key === '') return undefined;
      steps.push(key);
      i = end;
    } else {
      const close = body.indexOf(']', i);
      const inside = close < 0 ? '' : body.slice(i + 1, close);
      if (!/^(0|[1-9][0-9]{0,8})$/.test(inside)) return undefined;
      steps.push({ index: Number(inside) });
      i = close + 1;
    }
  }
  return { label, steps };
}
