/** Text escaped for HTML and SVG content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * JSON safe to embed in a `<script type="application/json">` element: `<` is written `\u003c` (so neither
 * `</script>` nor `<!--` can end or change the element), and the line separators U+2028/U+2029 are escaped.
 * `JSON.parse` of the element's text gives the value back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
