import { countryCode, fold, languageCode } from "../../specs/synthesize/world/world-data.js";
import { isObject } from "../../specs/json-object.js";
import { listsOthersById } from "../../specs/respond/bindings/response-fields.js";

/**
 * An independent judge of whether tool responses contradict their calls, for the audit of a run's journal.
 * It reads names and values only (no spec, no bindings, no responder), the way a reader of the data would:
 * - equality: a field named like an argument (or an equivalent name: `city` -> `location.name`, `email` ->
 *   `user.email`, `lat` -> `latitude`) holds the argument's value, and so does each field of an object that says
 *   back two or more arguments by name (`standardizedAddress: {addressLine1, city, zipCode}`);
 * - filters: items of a list answer to a query or path argument named like one of their fields (`region`,
 *   `type`, `countryCode`), and to `year` through their dates;
 * - ranges: dates of items are not before `from`/`startDate`/`after` nor after `to`/`endDate`/`before`;
 *   `minPrice`/`maxPrice` bound `price`;
 * - searches: every item of a search (`q`, `query`, `search`, `keyword`...) mentions the words searched for;
 * - routes: an `origin`/`destination` search offers items leaving from the origin and arriving at the destination;
 * - action effects: `cancel*`, `approve*`, `archive*`... leave the resource's status saying so;
 * - timelines: a record is not removed, closed or updated before it was made, a span does not end before it
 *   starts, and a live record (`status: Active`) has no removal stamp;
 * - windows: a span of time asked for (`hours=34`, `last_days=7`) is the span of the window the answer names
 *   (`from`..`to`, `start`..`end`; a window of dates counts its days either way);
 * - state: within an episode, a record read after a write holds what was written, a deleted one is gone, a
 *   record read again keeps its identity fields, and a line pointing at a seen resource (`bookId`) carries
 *   its title and price; a subtotal is the sum of its lines.
 */

type Json = Record<string, unknown>;

export type { Contradiction, ObservedCall } from "../../agents/tester/observed-call.js";
import type { Contradiction, ObservedCall } from "../../agents/tester/observed-call.js";

function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

const CREDENTIAL = /token|secret|password|passwd|passphrase|api_?key|credential|signature|otp$|code_verifier/;
const NOT_A_FILTER = /^(limit|offset|page|page_size|per_page|size|count|max_results|cursor|sort|sort_by|order|order_by|direction|fields|include|expand|format|callback|units|unit|lang|language|locale|currency|days|hours|radius|servings|amount|quantity|precision|version|v|detail|details|verbose|pretty|debug|mode)$/;
const SEARCH = /^(q|query|search|search_query|search_term|keyword|keywords|term|terms)$/;
const FROM_DATE = /^(from|start|start_date|date_from|from_date|since|after|begin|check_in|checkin|departure_date|start_time|min_date|earliest)$/;
const TO_DATE = /^(to|end|end_date|date_to|to_date|until|before|finish|check_out|checkout|end_time|max_date|latest)$/;
const ITEM_DATE = ["date", "start_date", "start", "starts_at", "start_time", "datetime", "date_time", "published_at", "published", "departure_time", "departure", "scheduled_at", "occurs_at", "event_date", "day", "observed", "time"];
const VOLATILE = /(^|_)(at|time|timestamp|date|updated|modified|now|current|views|count|stock|quantity|qty|available|availability|remaining|rating|score|rank|position|popularity|balance|last|next|online|expires|expires_in|token|etag|version|status|state)$/;
const ORIGIN = ["origin", "from", "departure_airport", "origin_airport", "source", "departure"];
const DESTINATION = ["destination", "to", "arrival_airport", "destination_airport", "arrival"];
const PLACE_OBJECTS = /^(location|place|city|geo|address|position|area)$/;
const ECHO_OBJECTS = /^(query|request|params|parameters|search|filters|criteria|input|args|meta)$/;
const IDENTITY_OBJECTS = /^(user|account|profile|me|session|customer|member)$/;
const IDENTITY_FIELDS = /^(email|username|user_name|login|phone|user_id|account_id)$/;

/** Effect verbs: the status words a successful action leaves. */
const EFFECTS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^cancel/, /cancel/],
  [/^approve/, /approv/],
  [/^archive/, /archiv/],
  [/^reject/, /reject|declin/],
  [/^decline/, /declin|reject/],
  [/^confirm/, /confirm/],
  [/^complete/, /complet|done|finish/],
  [/^close/, /clos/],
  [/^suspend/, /suspend/],
  [/^publish/, /publish|live/],
  [/^unpublish/, /unpublish|draft/],
  [/^refund/, /refund/],
  [/^accept/, /accept/],
  [/^deactivate/, /inactiv|deactiv|disabl/],
  [/^activate/, /^activ|enabl/],
  [/^disable/, /disabl|inactiv/],
  [/^enable/, /enabl|^activ/],
  [/^pause/, /paus/],
  [/^unlock/, /unlock/],
  [/^lock/, /^lock/],
];

const DATE_PREFIX = /^(\d{4})-(\d\d)-(\d\d)/;

function dayOf(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const m = DATE_PREFIX.exec(v.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function text(v: unknown): string | undefined {
  if (typeof v === "string") return fold(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

/** Whether two scalars say the same thing: equal text (folded), numbers by value, dates by day, codes by name. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(a));
  const ta = text(a);
  const tb = text(b);
  if (ta === undefined || tb === undefined) return false;
  if (ta === tb) return true;
  if (ta !== "" && tb !== "" && Number.isFinite(Number(ta)) && Number.isFinite(Number(tb))) return Number(ta) === Number(tb);
  const da = dayOf(a);
  const db = dayOf(b);
  if (da !== undefined && db !== undefined) return da === db;
  if (typeof a === "string" && typeof b === "string") {
    const ca = countryCode(a);
    if (ca !== undefined && ca === countryCode(b)) return true;
    const tag = /^[a-z]{2,3}(?:[-_](?:[A-Za-z]{4}|[A-Z]{2}|\d{3}))?$/;
    const la = tag.test(a) || tag.test(b) ? languageCode(a) : undefined;
    if (la !== undefined && la === languageCode(b)) return true;
  }
  return false;
}

/** Whether a field's value answers an argument: the same value, a list holding it, or a text containing it (`type=rock` in `Indie Rock`). */
function agrees(field: unknown, arg: unknown, loose: boolean): boolean | undefined {
  if (field === null || field === undefined) return undefined;
  if (Array.isArray(field)) {
    if (field.some((f) => isObject(f) || Array.isArray(f))) return undefined;
    return field.length === 0 ? undefined : field.some((f) => agrees(f, arg, loose) === true);
  }
  if (typeof field === "object" || typeof arg === "object") return undefined;
  if (sameValue(field, arg)) return true;
  if (loose && typeof field === "string" && typeof arg === "string" && arg.length >= 3) {
    const f = fold(field);
    const a = fold(arg);
    return f.includes(a) || a.includes(f);
  }
  return false;
}

/** The lists of objects in a body: the body itself, or arrays of objects among its top-level fields (and one level down). */
function listsOf(body: unknown): Array<{ at: string; items: Json[] }> {
  const out: Array<{ at: string; items: Json[] }> = [];
  const objs = (a: unknown[]): Json[] => a.filter(isObject);
  if (Array.isArray(body)) out.push({ at: "[]", items: objs(body) });
  else if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) {
      if (Array.isArray(v) && v.some(isObject)) out.push({ at: `${k}[]`, items: objs(v) });
      else if (isObject(v)) for (const [k2, v2] of Object.entries(v)) if (Array.isArray(v2) && v2.some(isObject)) out.push({ at: `${k}.${k2}[]`, items: objs(v2) });
    }
  }
  return out.filter((l) => l.items.length > 0);
}

function fieldOf(item: Json, names: readonly string[]): [string, unknown] | undefined {
  for (const [k, v] of Object.entries(item)) if (names.includes(snake(k))) return [k, v];
  return undefined;
}

/** An airport or place code of an item's route end: a string, or the code/iata/city of an object. */
function endValue(v: unknown): unknown {
  if (isObject(v)) return v["iata"] ?? v["code"] ?? v["airport"] ?? v["airportCode"] ?? v["city"] ?? v["name"];
  return v;
}

/** Whether an object says back two or more of the call's scalar arguments by name (a standardized address). */
function echoesArguments(o: Json, args: ReadonlyArray<readonly [string, unknown]>): boolean {
  const keys = new Set(Object.entries(o).filter(([, v]) => v === null || typeof v !== "object").map(([k]) => snake(k)));
  let n = 0;
  for (const [name, value] of args) if (typeof value !== "object" && keys.has(snake(name)) && ++n >= 2) return true;
  return false;
}

/** The contradictions of one successful call with its own arguments. */
export function callContradictions(call: ObservedCall): Contradiction[] {
  const out: Contradiction[] = [];
  if (call.status < 200 || call.status > 299) return out;
  const body = call.body;
  const tool = call.tool;
  const args = Object.entries(call.args).filter(([k, v]) => v !== undefined && v !== null && v !== "" && !CREDENTIAL.test(snake(k)));
  const add = (c: Omit<Contradiction, "tool">): void => {
    out.push({ tool, ...c });
  };
  const lists = listsOf(body);
  // Equality with the answer's record (and its nested objects that are places, echoes or identities).
  if (isObject(body)) {
    for (const [name, value] of args) {
      if (typeof value === "object") continue;
      const n = snake(name);
      // A country asked is the answer's country under any of its names (`country=DE` -> `countryName: Germany`).
      const countryArg = /^(country|country_code|country_iso|country_iso2)$/.test(n) && typeof value === "string" && countryCode(value) !== undefined;
      for (const [k, v] of Object.entries(body)) {
        if (countryArg && snake(k) !== n && /^country(_code|_iso2?|_name|_display_name)?$/.test(snake(k)) && typeof v === "string" && countryCode(v) !== undefined && countryCode(v) !== countryCode(value as string)) {
          add({ rule: "equality", field: k, argument: name, expected: value, actual: v });
        }
        if (snake(k) === n && !Array.isArray(v)) {
          const ok = agrees(v, value, false);
          if (ok === false) add({ rule: "equality", field: k, argument: name, expected: value, actual: v });
        }
        if (!isObject(v)) continue;
        const holder = snake(k);
        const pairs: Array<[string, string]> = [];
        if (PLACE_OBJECTS.test(holder) && /^(city|location|place|town|q|address)$/.test(n)) pairs.push(["name", "city"]);
        if (ECHO_OBJECTS.test(holder) || echoesArguments(v, args) || (IDENTITY_OBJECTS.test(holder) && IDENTITY_FIELDS.test(n)) || (PLACE_OBJECTS.test(holder) && /^(country|country_code|city|lat|latitude|lon|lng|longitude)$/.test(n))) pairs.push([n, n]);
        for (const [target] of pairs) {
          for (const [k2, v2] of Object.entries(v)) {
            if (snake(k2) !== target) continue;
            if (/^(lat|latitude|lon|lng|longitude)$/.test(n)) {
              if (typeof v2 === "number" && Math.abs(v2 - Number(value)) > 0.5) add({ rule: "equality", field: `${k}.${k2}`, argument: name, expected: value, actual: v2 });
              continue;
            }
            const ok = agrees(v2, value, target === "name");
            if (ok === false) add({ rule: "equality", field: `${k}.${k2}`, argument: name, expected: value, actual: v2 });
          }
        }
      }
    }
  }
  const method = call.method.toLowerCase();
  // A read of one record (`GET /patient_messages/{id}`).
  const readsOne = method === "get" && /\}$/.test(call.path) && isObject(body);
  for (const list of lists) {
    for (const [name, value] of args) {
      if (call.bodyArgs.has(name) && method !== "get") continue;
      if (typeof value === "object") continue;
      const n = snake(name);
      // What the one record answered has itself (`?doctor=75` of a message whose `doctor` is 75) is not what its parts
      // have (its attachments' doctors); items of another noun under their own id are other records (`competitor[].company_id` of `companyId`).
      if (readsOne && !call.path.includes(`{${name}}`) && isObject(body) && Object.entries(body).some(([k, v]) => snake(k) === n && !Array.isArray(v) && !isObject(v) && agrees(v, value, false) === true)) continue;
      if (list.items[0] !== undefined && listsOthersById(Object.keys(list.items[0]), list.at, name)) continue;
      // A language asked of a list whose items have one is a filter (`listSources(language=pt)`).
      const languageFilter = /^(lang|language|locale)$/.test(n) && list.items.some((item) => isObject(item) && typeof item[name] === "string");
      if ((NOT_A_FILTER.test(n) && !languageFilter) || n === "id") continue;
      if (SEARCH.test(n) && typeof value === "string") {
        const words = fold(value).split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
        if (words.length === 0) continue;
        for (const item of list.items) {
          if (!Object.values(item).some((v) => typeof v === "string" && v.trim() !== "")) continue; // nothing to judge
          const all = fold(JSON.stringify(item));
          if (!words.some((w) => all.includes(w))) add({ rule: "search", field: `${list.at}`, argument: name, expected: value, actual: shortItem(item) });
        }
        continue;
      }
      const fromDate = FROM_DATE.test(n) && dayOf(value) !== undefined;
      const toDate = TO_DATE.test(n) && dayOf(value) !== undefined;
      if (fromDate || toDate) {
        for (const item of list.items) {
          const f = fieldOf(item, ITEM_DATE);
          const d = f ? dayOf(f[1]) : undefined;
          const bound = dayOf(value) as string;
          if (f && d !== undefined && (fromDate ? d < bound : d > bound)) add({ rule: "range", field: `${list.at}.${f[0]}`, argument: name, expected: `${fromDate ? ">=" : "<="} ${bound}`, actual: f[1] });
        }
        continue;
      }
      const bound = /^(min|max)_?(.+)$/.exec(n) ?? /^(.+?)_(min|max)$/.exec(n);
      if (bound && (typeof value === "number" || (typeof value === "string" && Number.isFinite(Number(value))))) {
        const isMin = bound[1] === "min" || bound[2] === "min";
        const target = bound[1] === "min" || bound[1] === "max" ? bound[2] : bound[1];
        for (const item of list.items) {
          const f = target !== undefined ? fieldOf(item, [target]) : undefined;
          if (!f || typeof f[1] !== "number") continue;
          const limit = Number(value);
          if (isMin ? f[1] < limit : f[1] > limit) add({ rule: "range", field: `${list.at}.${f[0]}`, argument: name, expected: `${isMin ? ">=" : "<="} ${limit}`, actual: f[1] });
        }
        continue;
      }
      const isOrigin = /^(origin|from|departure|departure_airport|from_airport|origin_airport)$/.test(n);
      const isDestination = /^(destination|to|arrival|arrival_airport|to_airport|destination_airport)$/.test(n);
      if ((isOrigin || isDestination) && typeof value === "string" && /^[A-Z]{3}$/.test(value)) {
        for (const item of list.items) {
          const legs = Object.values(item).find((v) => Array.isArray(v) && v.length > 0 && v.every(isObject) && v.some((l) => fieldOf(l as Json, isOrigin ? ORIGIN : DESTINATION))) as Json[] | undefined;
          const holder = legs ? (isOrigin ? legs[0] : legs[legs.length - 1]) : item;
          const f = holder ? fieldOf(holder, isOrigin ? ORIGIN : DESTINATION) : undefined;
          if (!f) continue;
          const end = endValue(f[1]);
          if (typeof end === "string" && /^[A-Z]{3}$/.test(end) && end !== value) add({ rule: "route", field: `${list.at}.${f[0]}`, argument: name, expected: value, actual: end });
        }
        continue;
      }
      if (n === "year" && Number.isFinite(Number(value))) {
        for (const item of list.items) {
          const f = fieldOf(item, ["year", ...ITEM_DATE]);
          if (!f) continue;
          const y = typeof f[1] === "number" ? f[1] : dayOf(f[1])?.slice(0, 4);
          if (y !== undefined && Number(y) !== Number(value)) add({ rule: "filter", field: `${list.at}.${f[0]}`, argument: name, expected: value, actual: f[1] });
        }
        continue;
      }
      const names = n === "region" ? ["region", "continent"] : n === "country_code" || n === "country" ? ["country_code", "country"] : n === "type" ? ["type", "kind"] : [n];
      for (const item of list.items) {
        const f = fieldOf(item, names);
        if (!f) continue;
        const ok = agrees(f[1], value, typeof value === "string" && !/(_id|id|code)$/.test(n));
        if (ok === false) add({ rule: "filter", field: `${list.at}.${f[0]}`, argument: name, expected: value, actual: f[1] });
      }
    }
  }
  // Action effects.
  const verb = snake(tool).split("_")[0] ?? "";
  const lastSegment = snake(call.path.split("/").filter((s) => s !== "" && !s.startsWith("{")).pop() ?? "");
  const effect = EFFECTS.find(([v]) => v.test(verb) || (lastSegment !== "" && v.test(lastSegment) && lastSegment.length <= 12));
  if (effect && isObject(body)) {
    const holders: Array<[string, Json]> = [["", body], ...Object.entries(body).filter((e): e is [string, Json] => isObject(e[1]) && !ECHO_OBJECTS.test(snake(e[0])))];
    for (const [at, h] of holders) {
      for (const key of ["status", "state"]) {
        const v = h[key];
        if (typeof v === "string" && !effect[1].test(fold(v))) add({ rule: "effect", field: at === "" ? key : `${at}.${key}`, expected: effect[1].source, actual: v });
      }
    }
  }
  // Records looked up by a list of ids (`companyIds: [a, b]`, even by POST) are among them.
  for (const [name, value] of args) {
    const n = snake(name);
    if (!Array.isArray(value) || value.length === 0 || !/(^|_)ids$/.test(n) || !value.every((v) => typeof v === "string" || typeof v === "number")) continue;
    const field = n === "ids" ? "id" : n.replace(/_ids$/, "_id");
    const asked = new Set(value.map(String));
    for (const list of lists) {
      for (const item of list.items) {
        const f = fieldOf(item, [field]);
        if (f && (typeof f[1] === "string" || typeof f[1] === "number") && !asked.has(String(f[1]))) add({ rule: "filter", field: `${list.at}.${f[0]}`, argument: name, expected: value, actual: f[1] });
      }
    }
  }
  // A span of time asked for (`hours=34`, `last_days=7`) is the span of the window the answer names.
  if (isObject(body)) for (const c of windowContradictions(args, body)) add(c);
  for (const c of timelineContradictions(body, "", 0)) add(c);
  // Totals: a subtotal (or a total with nothing else to add) is the sum of its lines.
  if (isObject(body)) {
    const lines = lists.find((l) => l.items.some((i) => fieldOf(i, ["quantity", "qty"]) && fieldOf(i, ["unit_price", "price"])));
    const totalField = fieldOf(body, ["subtotal", "sub_total"]) ?? (Object.keys(body).some((k) => /tax|shipping|discount|fee/i.test(k)) ? undefined : fieldOf(body, ["total", "total_price", "total_amount"]));
    if (lines && totalField && typeof totalField[1] === "number") {
      let sum = 0;
      for (const i of lines.items) sum += Number(fieldOf(i, ["quantity", "qty"])?.[1]) * Number(fieldOf(i, ["unit_price", "price"])?.[1]);
      if (Number.isFinite(sum) && Math.abs(sum - totalField[1]) > 0.011) add({ rule: "total", field: totalField[0], expected: Math.round(sum * 100) / 100, actual: totalField[1] });
    }
  }
  return out;
}

const SPAN_ARG = /^(?:(?:last|past|lookback|window|period|time_window|range|within)_?)?(minutes|mins|hours|hrs|days|weeks)(?:_?(?:back|ago))?$/;
const SPAN_MS: Readonly<Record<string, number>> = { minutes: 60_000, mins: 60_000, hours: 3_600_000, hrs: 3_600_000, days: 86_400_000, weeks: 604_800_000 };
const WINDOW_ENDS: ReadonlyArray<readonly [string, string]> = [["from", "to"], ["start", "end"], ["since", "until"], ["begin", "end"], ["start_time", "end_time"], ["start_date", "end_date"], ["start_at", "end_at"], ["from_date", "to_date"], ["period_start", "period_end"], ["window_start", "window_end"]];

/** The window ends of an answer (at its root, or in one of its objects) whose span is not the span asked for. */
function windowContradictions(args: ReadonlyArray<[string, unknown]>, body: Json): Array<Omit<Contradiction, "tool">> {
  const out: Array<Omit<Contradiction, "tool">> = [];
  for (const [name, value] of args) {
    const unit = SPAN_ARG.exec(snake(name))?.[1];
    const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
    if (unit === undefined || !(n > 0)) continue;
    const asked = n * (SPAN_MS[unit] ?? 0);
    const holders: Array<[string, Json]> = [["", body], ...Object.entries(body).filter((e): e is [string, Json] => isObject(e[1]))];
    for (const [at, h] of holders) {
      const keys = new Map(Object.keys(h).map((k) => [snake(k), k]));
      const pair = WINDOW_ENDS.map(([a, b]) => [keys.get(a), keys.get(b)] as const).find((p): p is readonly [string, string] => p[0] !== undefined && p[1] !== undefined);
      if (!pair) continue;
      const [a, b] = [h[pair[0]], h[pair[1]]];
      if (typeof a !== "string" || typeof b !== "string") continue;
      const dates = /^\d{4}-\d\d-\d\d$/.test(a.trim());
      const span = Date.parse(dates ? `${b.trim()}T00:00:00Z` : b) - Date.parse(dates ? `${a.trim()}T00:00:00Z` : a);
      if (!Number.isFinite(span)) continue;
      const days = Math.round(span / 86_400_000);
      const fits = dates ? days === Math.round(asked / 86_400_000) || days === Math.round(asked / 86_400_000) - 1 : Math.abs(span - asked) < 60_000;
      if (!fits) out.push({ rule: "window", field: at === "" ? `${pair[0]}..${pair[1]}` : `${at}.${pair[0]}..${pair[1]}`, argument: name, expected: `${n} ${unit}`, actual: `${a} .. ${b}` });
    }
  }
  return out;
}

const FIRST = /^(created|registered|listed|published|posted|submitted|issued|opened)$/;
const AFTER = /^(updated|modified|removed|delisted|closed|deleted|archived|cancell?ed|resolved|completed|last_seen)$/;
const GONE_STAMP = /^(removed|delisted|closed|deleted|archived|cancell?ed)$/;
const LIVE_STATUS = /^(active|open|listed|live|available|published)$/;

/** A stamp's stem (`listedDate` -> `listed`), or undefined for a field that holds no date. */
function stemOf(key: string, value: unknown): string | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d\d-\d\d/.test(value) || !Number.isFinite(Date.parse(value))) return undefined;
  return snake(key).replace(/_(at|on|date|time|datetime|timestamp)$/, "").replace(/^(date|time)_/, "");
}

/**
 * Records whose stamps contradict each other or their status: removed, closed or updated before they were made,
 * a span that ends before it starts, a live record (`status: Active`) with a removal stamp.
 */
function timelineContradictions(value: unknown, at: string, depth: number): Array<Omit<Contradiction, "tool">> {
  const out: Array<Omit<Contradiction, "tool">> = [];
  if (depth > 6) return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...timelineContradictions(v, `${at}[${i}]`, depth + 1)));
    return out;
  }
  if (!isObject(value)) return out;
  const stamps = Object.entries(value).flatMap(([k, v]) => {
    const stem = stemOf(k, v);
    return stem === undefined ? [] : [{ k, stem, t: Date.parse(v as string) }];
  });
  const here = (k: string): string => (at === "" ? k : `${at}.${k}`);
  const status = value["status"];
  for (const a of stamps) {
    for (const b of stamps) {
      const ordered = (FIRST.test(a.stem) && AFTER.test(b.stem)) || (/^(start|begin|from|check_in)$/.test(a.stem) && /^(end|until|to|check_out)$/.test(b.stem));
      if (ordered && b.t < a.t) out.push({ rule: "timeline", field: here(b.k), expected: `not before ${a.k} ${String(value[a.k])}`, actual: value[b.k] });
    }
    if (typeof status === "string" && LIVE_STATUS.test(snake(status)) && GONE_STAMP.test(a.stem)) out.push({ rule: "timeline", field: here(a.k), expected: `none (status ${status})`, actual: value[a.k] });
  }
  for (const [k, v] of Object.entries(value)) if (typeof v === "object" && v !== null) out.push(...timelineContradictions(v, here(k), depth + 1));
  return out;
}

function shortItem(item: Json): string {
  const label = item["name"] ?? item["title"] ?? item["symbol"] ?? item["id"];
  return label !== undefined ? String(label) : JSON.stringify(item).slice(0, 60);
}

/** What the episode has seen of one record: its fields, which of them a write set, whether it was deleted. */
interface Seen {
  fields: Json;
  written: Set<string>;
  deleted: boolean;
}

const ID_KEYS = ["id", "uuid"];
/** Keys that name a thing of the world whatever the resource that shows it (a quote's and a search hit's `symbol`). */
const NATURAL_KEYS = ["symbol", "ticker", "isbn", "isbn13", "iataCode", "iata", "icaoCode"];
/** What such a thing is called and where it belongs: the same in every answer. */
/** Keys of an answer's envelope around its record. */
const ENVELOPE = /^(data|result|item|record|resource|payload|response)$/i;

const NATURAL_FIELDS = ["name", "title", "exchange", "currency", "country", "city"];

function idOf(record: Json): string | undefined {
  for (const k of ID_KEYS) {
    const v = record[k];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/**
 * The state contradictions of an episode's calls, in order: reads that disagree with an earlier write or
 * read of the same record, deleted records read back, lines that disagree with the resource they point at.
 */
export function stateContradictions(calls: readonly ObservedCall[]): Array<{ index: number; contradiction: Contradiction }> {
  const out: Array<{ index: number; contradiction: Contradiction }> = [];
  const seen = new Map<string, Seen>();
  const natural = new Map<string, Json>();
  calls.forEach((call, index) => {
    const method = call.method.toLowerCase();
    const ok = call.status >= 200 && call.status <= 299;
    if (!ok) return;
    const key = (noun: string, id: string): string => `${call.toolset}\u0000${noun}\u0000${id}`;
    const add = (c: Omit<Contradiction, "tool">): void => {
      out.push({ index, contradiction: { tool: call.tool, ...c } });
    };
    // A DELETE that answers the record (a cancelled booking) acts on it; one without a record removes it.
    const answersRecord = isObject(call.body) && idOf(call.body) !== undefined;
    const deleted = method === "delete" && !answersRecord ? /\{([^}]+)\}$/.exec(call.path)?.[1] : undefined;
    if (deleted !== undefined) {
      const id = call.args[deleted];
      if (typeof id === "string" || typeof id === "number") {
        const k = key(nounOf(call.path), String(id));
        seen.set(k, { fields: seen.get(k)?.fields ?? {}, written: new Set(), deleted: true });
      }
      return;
    }
    const noun = nounOf(call.path);
    const records: Array<[string, Json]> = [];
    if (isObject(call.body)) {
      records.push([noun, call.body]);
      // An envelope's record (`{data: {...}}` of JSON:API, `{result: {...}}`) is the path's resource; another object is its own noun.
      for (const [k, v] of Object.entries(call.body)) if (isObject(v)) records.push([ENVELOPE.test(k) ? noun : singular(snake(k)), v]);
    }
    for (const l of listsOf(call.body)) {
      const field = l.at.replace(/\[\]$/, "").split(".").pop() ?? "";
      const listNoun = field === "" || /^(items|data|results|records|entries|list|content|values)$/.test(field) ? noun : singular(snake(field));
      for (const item of l.items) records.push([listNoun, item]);
    }
    const isWrite = method !== "get";
    for (const [recordNoun, r] of records) {
      // One instrument, book or airport by its natural key (`symbol: NWRB`) is one name in every answer.
      for (const nk of NATURAL_KEYS) {
        const v = r[nk];
        if (typeof v !== "string" || v === "") continue;
        const k = `${call.toolset}\u0000@${nk}\u0000${v}`;
        const before = natural.get(k);
        for (const f of NATURAL_FIELDS) {
          const mine = r[f];
          const theirs = before?.[f];
          if (typeof mine === "string" && typeof theirs === "string" && mine !== theirs) add({ rule: "state", field: f, argument: `${nk}=${v}`, expected: theirs, actual: mine });
        }
        natural.set(k, { ...(before ?? {}), ...Object.fromEntries(NATURAL_FIELDS.filter((f) => typeof r[f] === "string").map((f) => [f, r[f]])) });
        break;
      }
      const id = idOf(r);
      // References: a line's xxxId names a seen record; its title and price are that record's.
      for (const [k, v] of Object.entries(r)) {
        const m = /^(.+?)(Id|_id)$/.exec(k);
        if (!m || (typeof v !== "string" && typeof v !== "number")) continue;
        const target = seen.get(key(singular(snake(m[1] ?? "")), String(v)));
        if (!target || target.deleted) continue;
        // A record with its own id (a track with its albumId) has its own title and price; a line does not.
        const own = idOf(r) !== undefined && r !== call.body;
        for (const [mine, theirs] of [["title", "title"], ["price", "price"], ["unitPrice", "price"], ["unit_price", "price"]] as const) {
          if (own && (mine === "title" || mine === "price")) continue;
          if (r[mine] !== undefined && target.fields[theirs] !== undefined && !sameValue(r[mine], target.fields[theirs])) {
            add({ rule: "reference", field: mine, argument: k, expected: target.fields[theirs], actual: r[mine] });
          }
        }
      }
      if (id === undefined) continue;
      const prior = seen.get(key(recordNoun, id));
      if (prior?.deleted && method === "get") add({ rule: "state", field: "id", expected: "deleted earlier (404)", actual: `${id} answered` });
      if (prior && !prior.deleted) {
        for (const [k, v] of Object.entries(r)) {
          if (!(k in prior.fields) || typeof v === "object" || typeof prior.fields[k] === "object") continue;
          const writtenBefore = prior.written.has(k);
          if (isWrite && (!writtenBefore || /^(status|state)$/.test(k))) continue; // this call may change it
          if (!writtenBefore && VOLATILE.test(snake(k))) continue;
          if (call.bodyArgs.has(k) || (k in call.args && sameValue(call.args[k], v))) continue; // asked of this call (`servings=6`)
          if (!sameValue(v, prior.fields[k]) && v !== null && prior.fields[k] !== null) add({ rule: "state", field: k, expected: prior.fields[k], actual: v });
        }
      }
      const written = new Set<string>(prior?.written ?? []);
      if (isWrite) {
        for (const k of Object.keys(r)) if (call.bodyArgs.has(k) || k === "status" || k === "state") written.add(k);
      }
      // A read's view of the record (`getRecipe(servings=18)` scales it) is no state of it: later reads need not show it.
      const kept = isWrite ? r : Object.fromEntries(Object.entries(r).filter(([k, v]) => !(k in call.args && sameValue(call.args[k], v) && idOf({ [k]: v }) === undefined)));
      seen.set(key(recordNoun, id), { fields: { ...(prior?.fields ?? {}), ...kept }, written, deleted: false });
    }
  });
  return out;
}

function singular(word: string): string {
  if (/ies$/.test(word)) return word.slice(0, -3) + "y";
  if (/(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The resource noun of a path: the literal segment before its last parameter, else its last literal segment (`/orders/{id}/cancel` -> `order`). */
function nounOf(path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  let last = -1;
  segments.forEach((s, i) => {
    if (s.startsWith("{")) last = i;
  });
  const literal = last > 0 ? segments[last - 1] : [...segments].reverse().find((s) => !s.startsWith("{"));
  return singular(snake(literal ?? ""));
}
