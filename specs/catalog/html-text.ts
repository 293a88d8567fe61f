/**
 * The text of a description written in HTML (`Halo 5 - Enemies. <br /> <h4>Changelog</h4> <ul><li>...`): tags
 * out, entities decoded, one space between blocks. Only HTML's own tag names count as tags, so `List<String>` or
 * `a < b` stay as written; a text without tags is returned as it is.
 */
export function htmlText(text: string): string {
  if (!HTML_TAG.test(text)) return text;
  return text
    .replace(HTML_TAGS, " ")
    .replace(/&(nbsp|amp|lt|gt|quot|apos|#39|#x27);/gi, (_, e: string) => ENTITIES[e.toLowerCase()] ?? " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
}

const TAG_NAMES = "a|abbr|b|blockquote|br|code|dd|del|div|dl|dt|em|h[1-6]|hr|i|img|ins|kbd|li|ol|p|pre|s|small|span|strong|sub|sup|table|tbody|td|tfoot|th|thead|tr|u|ul";
const HTML_TAG = new RegExp(`</?(?:${TAG_NAMES})(?:\\s[^<>]*)?/?>`, "i");
const HTML_TAGS = new RegExp(HTML_TAG.source, "gi");
const ENTITIES: Readonly<Record<string, string>> = { nbsp: " ", amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#x27": "'" };
