/**
 * Where a JSON value that starts at an offset of a text ends: for the calls of a document whose
 * arrays the boundary scanner does not frame (a request's `/context/1/plan`, three levels down),
 * located after the whole text is parsed, so each still carries its own slice. One pass over the
 * value's characters, no recursion: strings (and their escapes) and comments are stepped over,
 * brackets counted. The text parsed, so the value is well formed; a text cut short ends at its end.
 */
export function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return scalarEnd(text, start);
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = stringEnd(text, i) - 1;
    else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) i = lineEnd(text, i) - 1;
    else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) i = commentEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d /* } */ || c === 0x5d) /* ] */ && --depth === 0) return i + 1;
  }
  return text.length;
}

function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

function commentEnd(text: string, at: number): number {
  const end = text.indexOf('*/', at + 2);
  return end === -1 ? text.length : end + 2;
}

/** A string, number, true, false or null. */
function scalarEnd(text: string, start: number): number {
  if (text.charCodeAt(start) === 0x22) return stringEnd(text, start);
  let i = start;
  while (i < text.length && !/[\s,\]}/]/.test(text[i]!)) i++;
  return i;
}
