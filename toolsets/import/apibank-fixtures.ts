import { isObject } from "../../specs/json-object.js";
type Json = Record<string, unknown>;

/**
 * How API-Bank's databases are keyed: the field the key of each entry names (as the APIs call it), and the
 * field a non-object entry is kept under. Databases not listed are keyed by `id` and keep values as `value`.
 */
const DATABASE_LAYOUT: Readonly<Record<string, { key?: string; value?: string; list?: string }>> = {
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
  // Not keyed by entry: three datasets; the documents are the resources.
  SearchEngine: { list: "raw_documents" },
};

/** Whether an object is a record (named fields) rather than a map keyed by data (dates, codes). */
function isRecordLike(v: Json): boolean {
  return Object.keys(v).every((k) => /^[A-Za-z_][A-Za-z0-9_ ]*$/.test(k));
}

/**
 * The resources of one API-Bank database (`init_database/<Name>.json`, an object keyed by entry) as fixture
 * items: each entry gets `id` (its key) and the key under the name the APIs use (`username`,
 * `appointment_id`...); record entries keep their fields, other entries are kept under one field.
 */
export function databaseFixtures(database: string, data: unknown): Json[] {
  const layout = DATABASE_LAYOUT[database] ?? {};
  if (layout.list !== undefined && isObject(data) && Array.isArray(data[layout.list])) {
    return (data[layout.list] as unknown[]).map((item, i) => (isObject(item) ? { id: String(i + 1), ...item } : { id: String(i + 1), value: item }));
  }
  if (Array.isArray(data)) return data.map((item, i) => (isObject(item) ? { id: String(i + 1), ...item } : { id: String(i + 1), value: item }));
  if (!isObject(data)) return [];
  return Object.entries(data).map(([key, entry]) => {
    const item: Json = { id: key };
    if (layout.key !== undefined && layout.key !== "id") item[layout.key] = key;
    if (isObject(entry) && isRecordLike(entry)) Object.assign(item, entry, { id: key });
    else item[layout.value ?? "value"] = entry;
    return item;
  });
}

/** The collection path a database's fixtures live under (`/Agenda`). */
export function databaseCollection(database: string): string {
  return `/${database}`;
}
