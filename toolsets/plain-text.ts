/*
 * Plain text from the Markdown and HTML of spec descriptions, for the documentation the importers derive
 * (introduction, description, function documentation): links become their text, HTML tags and code blocks go,
 * and headings, paragraphs and list items become sentences that are joined with proper punctuation.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ndash: "–", mdash: "—", hellip: "…", rsquo: "’", lsquo: "‘", rdquo: "”", ldquo: "“" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? m;
  });
}

/** Elements that end a line of text. */
const BLOCK_TAGS = "p|div|br|h[1-6]|li|ul|ol|dl|dt|dd|tr|table|thead|tbody|blockquote|pre|hr|section|article|header|footer|details|summary|figure|figcaption|caption";
/** Inline elements: removed, their text kept. Other `<words>` are kept, since descriptions write placeholders (`<provider>`) that way. */
const INLINE_TAGS = "a|b|i|u|s|em|strong|code|span|small|big|sup|sub|font|center|tt|kbd|var|samp|mark|del|ins|strike|abbr|cite|q|label|img|td|th|col|colgroup|nav|main|aside|iframe|picture|source|video|audio";

const BLOCK_TAG = new RegExp(`<\\/?(${BLOCK_TAGS})\\b[^<>]*>`, "gi");
const INLINE_TAG = new RegExp(`<\\/?(${INLINE_TAGS})\\b[^<>]*>`, "gi");

/** HTML as text: block elements end a line, inline tags go (their text stays), entities are decoded. */
function stripHtml(text: string): string {
  return decodeEntities(
    text
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
      .replace(BLOCK_TAG, "\n")
      .replace(INLINE_TAG, ""),
  );
}

/** Markdown inline markup as text: images go, links become their text, emphasis and code spans lose their marks. */
function inlineText(line: string): string {
  return line
    .replace(/!\[[^\]]*\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, "")
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, "")
    .replace(/\[\s*\]\((?:[^()\s]|\([^()]*\))*\)/g, "")
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1")
    .replace(/\[+([^[\]]+?)\]+\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, "$1")
    .replace(/\[([^[\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/`+([^`]+?)`+/g, "$1")
    .replace(/~~([^~]+)~~/g, "$1")
    .replace(/\*\*([^*]+?)\*\*/g, "$1")
    .replace(/__([^_]+?)__/g, "$1")
    .replace(/(^|[^\w*])\*(?!\s)([^*]+?)\*(?!\w)/g, "$1$2")
    .replace(/(^|[^\w])_(?!\s)([^_]+?)_(?!\w)/g, "$1$2");
}

const END = /[.!?…]["'”’)]*$/;

/** A sentence: the text with a final period when it has no final punctuation (a trailing colon, comma or semicolon becomes one). */
export function asSentence(text: string): string {
  const t = text.trim();
  if (t === "" || END.test(t)) return t;
  return `${t.replace(/[\s,;:–—-]+$/, "")}.`;
}

/** Joins texts as sentences: each one but the last gets final punctuation, so "Lyft's API" + "It provides" reads "Lyft's API. It provides". */
export function joinSentences(...parts: ReadonlyArray<string | undefined>): string {
  const kept = parts.map((p) => (p ?? "").trim()).filter((p) => p !== "");
  return tidyText(kept.map((p, i) => (i < kept.length - 1 ? asSentence(p) : p)).join(" "));
}

/** Whitespace collapsed, no space before punctuation, doubled periods (`rides..`) single; an ellipsis is kept. */
export function tidyText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])(?=\s|$)/g, "$1")
    .replace(/([!?])\.(?!\.)/g, "$1")
    .replace(/(^|[^.])\.\s*\.(?!\.)/g, "$1.")
    .replace(/[,;:]\./g, ".")
    .trim();
}

type Block = { kind: "text" | "item"; text: string };

/**
 * Markdown and HTML of a spec description as plain text on one line: links as their text (`[[Demo]](url)` ->
 * `Demo`), images, HTML tags, tables and code blocks removed, entities decoded, and headings, paragraphs and
 * list items joined as sentences (items of a list with `;` unless they are sentences themselves).
 */
export function plainText(markdown: string): string {
  const lines = stripHtml(markdown.replace(/\r\n?/g, "\n").replace(/```[\s\S]*?(```|$)/g, "\n")).split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: "text", text: paragraph.join(" ") });
    paragraph = [];
  };
  let blank = true;
  let inCode = false;
  for (const raw of lines) {
    if (raw.trim() === "") {
      flush();
      blank = true;
      inCode = false;
      continue;
    }
    // An indented code block starts after a blank line (list continuations are indented less).
    if ((blank || inCode) && /^( {4,}|\t)/.test(raw) && paragraph.length === 0) {
      inCode = true;
      blank = false;
      continue;
    }
    blank = false;
    const line = raw.trim();
    if (/^\[[^\]]+\]:\s*\S+/.test(line)) continue; // reference definition
    if (/^([-*_]\s*){3,}$/.test(line)) continue; // rule
    if (/^\|.*\|$/.test(line) || /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?$/.test(line)) continue; // table row
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "text", text: heading[1] ?? "" });
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      blocks.push({ kind: "item", text: item[1] ?? "" });
      continue;
    }
    const text = line.replace(/^>\s?/, "");
    // A line after a list item with no blank line between continues the item.
    const last = blocks[blocks.length - 1];
    if (paragraph.length === 0 && last?.kind === "item" && /^\s/.test(raw)) last.text = `${last.text} ${text}`;
    else paragraph.push(text);
  }
  flush();
  const sentences: string[] = [];
  for (let i = 0; i < blocks.length; ) {
    const block = blocks[i] as Block;
    if (block.kind === "text") {
      const text = tidyText(inlineText(block.text));
      const previous = sentences[sentences.length - 1];
      // A block that starts in lower case goes on the sentence before it (text around a removed code block).
      if (previous !== undefined && /^[a-z]/.test(text) && !END.test(previous)) sentences[sentences.length - 1] = `${previous.replace(/[\s:]+$/, "")} ${text}`;
      else sentences.push(text);
      i++;
      continue;
    }
    const items: string[] = [];
    for (; i < blocks.length && blocks[i]?.kind === "item"; i++) items.push(tidyText(inlineText((blocks[i] as Block).text)));
    const kept = items.filter((t) => t !== "");
    const sentenceLike = kept.every((t) => END.test(t));
    const list = sentenceLike ? kept.join(" ") : kept.map((t, j) => (j < kept.length - 1 ? t.replace(/[\s,;.]+$/, "") : t)).join("; ");
    // "It can:" followed by its list reads as one sentence.
    const previous = sentences.length - 1;
    if (previous >= 0 && /:\s*$/.test(sentences[previous] as string)) sentences[previous] = `${(sentences[previous] as string).trim()} ${list}`;
    else sentences.push(list);
  }
  return joinSentences(...sentences.map((s) => tidyText(s)));
}
