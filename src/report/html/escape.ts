/**
 * Plan data is untrusted text (the model wrote the ids, tools' outputs are anything): it reaches
 * the page only as escaped markup or as JSON inside a non-executing script element.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON for `<script type="application/json">`: every `<` (so no `</script>` or `<!--` can end or
 * change the element), and U+2028/U+2029, written as JSON escapes. `JSON.parse` reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
