import { deriveSeed } from "../../seed.js";
import { pointerSegment, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";

/**
 * An article a search found is about what was searched: an example about chip plants, answering a search for "heat
 * wave Spain", is not retitled "heat wave Spain: Chipmakers race to open new plants" (its description still about
 * chips), but gets a headline, a summary and an address about the search.
 */

const TITLE_KEYS = /^(title|headline|web_title|name)$/;
const SUMMARY_KEYS = /^(description|summary|abstract|snippet|excerpt|lead|teaser|standfirst|trail_text)$/;
const BODY_KEYS = /^(content|body|text|full_text|article_body)$/;
const ARTICLE_MARKS = /^(published_at|published|publication_date|pub_date|date_published|web_publication_date|author|byline|source|url|web_url|link)$/;

const HEADLINES = ["{Q}: what we know so far", "{Q}: the latest", "What {q} means for the week ahead", "{Q} explained", "Live updates: {Q}", "Why {q} matters now"];
const SUMMARIES = [
  "The latest reporting on {q}, with reactions and what comes next.",
  "What happened with {q}, who is affected and what to watch.",
  "A look at {q}: the facts so far and the questions that remain.",
];

/** Whether a list item is an article (a headline beside a summary and a publication mark, or beside two marks). */
export function isArticle(item: Json): boolean {
  const keys = Object.keys(item).map(snakeName);
  const marks = keys.filter((k) => ARTICLE_MARKS.test(k)).length;
  return keys.some((k) => TITLE_KEYS.test(k)) && ((keys.some((k) => SUMMARY_KEYS.test(k) || BODY_KEYS.test(k)) && marks >= 1) || marks >= 2);
}

function titleCase(words: string): string {
  return words.replace(/\b([a-z])/g, (c) => c.toUpperCase());
}

/** Writes an article's headline, summary, body and address about a search, through `write` (fields a call fixed are the writer's to keep). */
export function aboutTheSearch(item: Json, at: string, query: string, index: number, seed: number, write: (holder: Json, key: string, pointer: string, value: unknown) => void): void {
  const plain = query.replace(/\s+(AND|OR|NOT)\s+/g, " ").replace(/["()]/g, "").replace(/\s+/g, " ").trim();
  if (plain === "") return;
  const pick = <T>(list: readonly T[], salt: string): T => list[deriveSeed(seed, index, salt) % list.length] as T;
  const fill = (template: string): string => template.replace("{Q}", titleCase(plain)).replace("{q}", plain);
  for (const [key, value] of Object.entries(item)) {
    if (typeof value !== "string") continue;
    const name = snakeName(key);
    const pointer = `${at}/${pointerSegment(key)}`;
    if (TITLE_KEYS.test(name)) write(item, key, pointer, fill(pick(HEADLINES, "headline")));
    else if (SUMMARY_KEYS.test(name)) write(item, key, pointer, fill(pick(SUMMARIES, "summary")));
    else if (BODY_KEYS.test(name) && value.length > 0) write(item, key, pointer, `${fill(pick(SUMMARIES, "summary"))} ${fill("Reporters followed {q} through the day.")}`);
    else if (/^(url|web_url|link)$/.test(name)) {
      // The address's last segment is the article's slug: the search's.
      const slug = plain.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
      const moved = value.replace(/\/[a-z0-9]+(?:-[a-z0-9]+)+\/?$/, `/${slug}`);
      if (slug !== "" && moved !== value) write(item, key, pointer, moved);
    }
  }
}
