import type { ResourceStore } from "../../specs/respond/resource-store.js";
import { isObject } from "../../specs/json-object.js";

type Json = Record<string, unknown>;

/**
 * How API-Bank's databases (`init_database/<Name>.json`, each a dict keyed by entry) are laid out as toolset
 * fixtures, one collection `/<Name>` with an item per key: the item's `id` is the key, `key` names the field
 * that repeats it (as the APIs call it), and `value` the field that holds an entry that is not a record (a
 * list, a price table). Databases not listed hold records keyed by `id` alone (Agenda, Alarm, Meeting...).
 */
export const APIBANK_DATABASE_LAYOUT: Readonly<Record<string, { key?: string; value?: string; documents?: true }>> = {
  Account: { key: "username" },
  Bank: { key: "username" },
  Appointments: { key: "appointment_id" },
  HealthData: { key: "user_id", value: "health_data" },
  History: { key: "date", value: "history" },
  QuestionAnswering: { key: "url", value: "questions" },
  Scenes: { key: "name", value: "devices" },
  SpeechRecognition: { key: "url", value: "transcript" },
  Stock: { key: "stock_code", value: "prices" },
  Symptom: { key: "symptom", value: "results" },
  TimeSwitch: { key: "name", value: "switches" },
  Wiki: { key: "keyword" },
  // A search index, not a dict: its documents (with their tokens) are the items.
  SearchEngine: { documents: true },
};

/** The collection path a database's fixtures live under (`/Agenda`). */
export function databaseCollection(database: string): string {
  return `/${database}`;
}

/** Whether an object is a record (named fields) rather than a map keyed by data (dates, codes). */
function isRecordLike(v: Json): boolean {
  return Object.keys(v).every((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
}

/** The fixture items of one API-Bank database (see {@link APIBANK_DATABASE_LAYOUT}). */
export function databaseFixtures(database: string, data: unknown): Json[] {
  const layout = APIBANK_DATABASE_LAYOUT[database];
  if (layout?.documents && isObject(data) && Array.isArray(data["raw_documents"])) {
    const tokens = Array.isArray(data["tokenized_documents"]) ? (data["tokenized_documents"] as unknown[]) : [];
    return (data["raw_documents"] as unknown[]).map((doc, i) => ({ id: String(i), ...(isObject(doc) ? doc : { value: doc }), ...(Array.isArray(tokens[i]) ? { tokens: tokens[i] } : {}) }));
  }
  if (Array.isArray(data)) return data.map((item, i) => ({ id: String(i), ...(isObject(item) ? item : { [layout?.value ?? "value"]: item }) }));
  if (!isObject(data)) return [];
  return Object.entries(data).map(([key, entry]) => {
    const item: Json = { id: key };
    if (layout?.key !== undefined) item[layout.key] = key;
    const record = layout === undefined || layout.value === undefined ? isObject(entry) && (layout !== undefined || isRecordLike(entry)) : false;
    if (record) Object.assign(item, entry, { id: key });
    else item[layout?.value ?? "value"] = entry;
    return item;
  });
}

/**
 * One API-Bank database as the APIs see it, a Python dict (`self.database`), kept in the episode's state in
 * the fixture layout: keys in insertion order, `d[key] = v`, `del d[key]`, `len(d)`. An int key the APIs make
 * (`len(self.database) + 1`) that meets a str key of the same digits gets its own item, as in Python.
 */
export class PyTable {
  private readonly path: string;
  private readonly layout: { key?: string; value?: string; documents?: true } | undefined;

  constructor(
    private readonly store: ResourceStore,
    readonly database: string,
  ) {
    this.path = databaseCollection(database);
    this.layout = APIBANK_DATABASE_LAYOUT[database];
  }

  /** The keys, in insertion order. */
  keys(): string[] {
    return this.store.list(this.path).map((i) => String(i["id"]));
  }

  /** `len(self.database)`. */
  get size(): number {
    return this.store.list(this.path).length;
  }

  has(key: string): boolean {
    return this.store.get(this.path, key) !== undefined;
  }

  /** The entry of a key (a copy: write it back with `set`). */
  get(key: string): unknown {
    const item = this.store.get(this.path, key);
    return item === undefined ? undefined : this.entryOf(item);
  }

  /** `(key, entry)` pairs in insertion order (copies). */
  entries(): Array<[string, unknown]> {
    return this.store.list(this.path).map((i) => [String(i["id"]), this.entryOf(i)]);
  }

  /** `self.database[key] = entry`. */
  set(key: string, entry: unknown): void {
    const item: Json = { id: key };
    if (this.layout?.key !== undefined) item[this.layout.key] = key;
    if (isObject(entry) && this.layout?.value === undefined) Object.assign(item, structuredClone(entry), { id: key });
    else item[this.layout?.value ?? "value"] = structuredClone(entry);
    this.store.put(this.path, key, item, "id");
  }

  /** `self.database[n] = entry` with an int key: a str key of the same digits is another key in Python. */
  setIntKey(n: number, entry: unknown): void {
    const plain = String(n);
    const taken = this.store.get(this.path, plain);
    this.set(taken !== undefined && taken["~int"] !== true ? `${plain}~int` : plain, isObject(entry) ? { ...entry, "~int": true } : entry);
  }

  /** `del self.database[key]`. */
  delete(key: string): void {
    this.store.delete(this.path, key, "id");
  }

  private entryOf(item: Json): unknown {
    if (this.layout?.value !== undefined && this.layout.documents !== true) return structuredClone(item[this.layout.value]);
    const out: Json = {};
    for (const [k, v] of Object.entries(item)) if (k !== "id" && k !== "~int" && k !== this.layout?.key && k !== "tokens") out[k] = structuredClone(v);
    return out;
  }
}

/** The tokens of the search engine's documents (their order is the index's). */
export function searchDocuments(store: ResourceStore): Array<{ doc: Json; tokens: string[] }> {
  return store.list(databaseCollection("SearchEngine")).map((i) => {
    const { id: _id, tokens, ...doc } = i;
    return { doc, tokens: Array.isArray(tokens) ? tokens.map(String) : [] };
  });
}

/** The state of an API's instance (attributes its Python object keeps between calls), by API name. */
export class InstanceState {
  private static readonly PATH = "/~apibank-instances";

  constructor(private readonly store: ResourceStore) {}

  get(api: string): Json {
    return structuredClone(this.store.get(InstanceState.PATH, api) ?? { id: api });
  }

  set(api: string, state: Json): void {
    this.store.put(InstanceState.PATH, api, { ...structuredClone(state), id: api }, "id");
  }
}
