/** Small English helpers for the offline user's phrasing: words of identifiers, plurals, verb forms, lists. */

/** The words of an identifier: `maxReadyTime` / `country_code` / `Accept-Language` -> `["max", "ready", "time"]`. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** An identifier as a readable phrase: `maxReadyTime` -> `max ready time`, `id` -> `ID`. */
export function humanize(name: string): string {
  return identifierWords(name)
    .map((w) => (w === "id" ? "ID" : w === "url" ? "URL" : w === "iso" ? "ISO" : w))
    .join(" ");
}

/** The singular of a regular English plural (`recipes` -> `recipe`, `companies` -> `company`). */
export function singular(word: string): string {
  const w = word.toLowerCase();
  if (/(ss|us|is|news)$/.test(w)) return word;
  if (/ies$/.test(w) && w.length > 4) return word.slice(0, -3) + "y";
  if (/(sses|xes|ches|shes|zes)$/.test(w)) return word.slice(0, -2);
  if (/s$/.test(w) && w.length > 3) return word.slice(0, -1);
  return word;
}

/** Whether a noun looks plural (`recipes`, `facts`) rather than singular (`forecast`, `news`, `status`). */
export function isPlural(word: string): boolean {
  const w = word.toLowerCase();
  if (/(ss|us|is|news|series|species)$/.test(w)) return false;
  return /[^s]s$/.test(w) || /(ies|ches|shes|xes|sses)$/.test(w);
}

/** `is` or `are` for a noun phrase, by its head noun. */
export function beFor(nounPhrase: string): "is" | "are" {
  const words = nounPhrase.trim().split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && /^(of|for|in|at|between|by|on|from|to|with|near|about)$/i.test(w));
  const head = (cut > 0 ? words[cut - 1] : words[words.length - 1]) ?? "";
  return isPlural(head) ? "are" : "is";
}

/** The -ing form of a verb (`get` -> `getting`, `create` -> `creating`, `show` -> `showing`). */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  const irregular: Record<string, string> = { be: "being", see: "seeing", lie: "lying", die: "dying", set: "setting", put: "putting", run: "running", get: "getting", let: "letting", cut: "cutting", plan: "planning", stop: "stopping", shop: "shopping", ship: "shipping", sum: "summing", log: "logging", map: "mapping", tag: "tagging", pin: "pinning" };
  const hit = irregular[v];
  if (hit !== undefined) return hit;
  if (/ie$/.test(v)) return v.slice(0, -2) + "ying";
  if (/[^aeiouy]e$/.test(v) && v !== "be") return v.slice(0, -1) + "ing";
  return v + "ing";
}

/** Turns every clause-leading verb of a verb phrase list into its -ing form. */
export function gerundPhrase(verbPhrase: string): string {
  const [first, ...rest] = verbPhrase.split(" ");
  return [gerund(first ?? ""), ...rest].join(" ");
}

/** `a`, `b and c` / `a, b or c`. */
export function joinList(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0] as string;
  if (items.length === 2) return `${items[0]} ${conjunction} ${items[1]}`;
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** The text with its first letter in upper case. */
export function capitalize(text: string): string {
  return text.length === 0 ? text : (text[0] as string).toUpperCase() + text.slice(1);
}

/** The text with its first letter in lower case, unless it starts with an acronym or a proper-looking word. */
export function decapitalize(text: string): string {
  if (text.length < 2) return text.toLowerCase();
  if (/^[A-Z]{2}/.test(text) || /^I\b/.test(text)) return text;
  return (text[0] as string).toLowerCase() + text.slice(1);
}

/** `a` or `an` for the word that follows. */
export function articleFor(word: string): "a" | "an" {
  return /^[aeiou]/i.test(word) && !/^(uni|use|eu|one)/i.test(word) ? "an" : "a";
}

/** Tokens of free text for matching: lower-case words, with a light plural stemming. */
export function tokens(text: string): string[] {
  return identifierWords(text).map((w) => (w.length > 3 ? singular(w) : w));
}

/** Edit distance (Levenshtein), capped: returns `cap + 1` once the distance exceeds `cap`. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length] as number;
}
