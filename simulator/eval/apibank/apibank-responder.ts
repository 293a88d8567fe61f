import type { Responder, ResponderAnswer, ResponseContext } from "../../../specs/respond/responder.js";
import type { ResourceStore } from "../../../specs/respond/resource-store.js";
import { createRng } from "../../../specs/seed.js";

/*
 * The API-Bank APIs over the episode's state (the databases loaded as fixtures by `apibank-world.ts`):
 * accounts and tokens, agenda/alarm/reminder/meeting CRUD for the token's user, bank, stocks, health data,
 * hospital registrations, scenes and timed switches, and lookups in the recorded knowledge tables. Written from
 * the API descriptions and the databases; an API raising an exception answers 400 with the message. APIs that
 * need an external model (Translate, ImageCaption, Dictionary) are left to the next responder.
 */

type Json = Record<string, unknown>;

/** An exception raised by an API (API-Bank's `exception` field): answered as a 400 problem. */
export class ApiBankException extends Error {
  override name = "ApiBankException";
}

/** The date GetToday answers: the one the corpus was recorded on. */
export const APIBANK_TODAY = "2023-03-31";

/** The verification code ForgotPassword sends (fixed, as in the corpus). */
export const APIBANK_VERIFICATION_CODE = 970420;

function str(v: unknown): string {
  return v === undefined || v === null ? "" : String(v);
}

function strip(item: Json | undefined): Json | undefined {
  if (!item) return undefined;
  const { id: _id, ...rest } = item;
  return rest;
}

/** Database helpers over the episode's resource store. */
class Db {
  constructor(private readonly state: ResourceStore) {}

  list(table: string): Json[] {
    return this.state.list(`/${table}`) as Json[];
  }
  get(table: string, id: string): Json | undefined {
    return this.state.get(`/${table}`, id) as Json | undefined;
  }
  getIgnoringCase(table: string, id: string): Json | undefined {
    return this.get(table, id) ?? this.list(table).find((i) => str(i["id"]).toLowerCase() === id.toLowerCase());
  }
  put(table: string, item: Json): void {
    this.state.put(`/${table}`, str(item["id"]), item, "id");
  }
  remove(table: string, id: string): void {
    this.state.delete(`/${table}`, id, "id");
  }
  insert(table: string, record: Json): string {
    const id = String(this.state.nextNumericId(`/${table}`));
    this.put(table, { id, ...record });
    return id;
  }
  /** The username of a token. */
  user(token: unknown): string {
    const account = this.list("Account").find((a) => a["token"] === token);
    if (!account || token === undefined || token === "") throw new ApiBankException("The token is invalid.");
    return str(account["id"]);
  }
}

/** The CRUD tables of a user's schedule: their fields and the field that names an item. */
const USER_TABLES: Record<string, { table: string; fields: string[]; key: string }> = {
  Agenda: { table: "Agenda", fields: ["content", "time", "location"], key: "content" },
  Alarm: { table: "Alarm", fields: ["time"], key: "time" },
  Reminder: { table: "Reminder", fields: ["content", "time"], key: "content" },
  Meeting: { table: "Meeting", fields: ["meeting_topic", "start_time", "end_time", "location", "attendees"], key: "meeting_topic" },
};

function findOwn(db: Db, table: string, username: string, key: string, value: unknown): Json | undefined {
  const v = str(value).trim().toLowerCase();
  return db.list(table).find((i) => i["username"] === username && str(i[key]).trim().toLowerCase() === v);
}

function evaluateFormula(formula: string): number {
  const tokens = formula.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join("") !== formula.replace(/\s+/g, "")) throw new ApiBankException("invalid formula: only numbers and + - * / ( ) are allowed");
  let i = 0;
  const expr = (): number => {
    let v = term();
    while (tokens[i] === "+" || tokens[i] === "-") v = tokens[i++] === "+" ? v + term() : v - term();
    return v;
  };
  const term = (): number => {
    let v = factor();
    while (tokens[i] === "*" || tokens[i] === "/") {
      const op = tokens[i++];
      const r = factor();
      if (op === "/" && r === 0) throw new ApiBankException("division by zero");
      v = op === "*" ? v * r : v / r;
    }
    return v;
  };
  const factor = (): number => {
    const t = tokens[i++];
    if (t === "(") {
      const v = expr();
      if (tokens[i++] !== ")") throw new ApiBankException("invalid formula: unbalanced parentheses");
      return v;
    }
    if (t === "-") return -factor();
    if (t === undefined || !/^\d/.test(t)) throw new ApiBankException("invalid formula");
    return Number(t);
  };
  const v = expr();
  if (i !== tokens.length) throw new ApiBankException("invalid formula");
  return Math.round(v * 1e6) / 1e6;
}

function randomToken(seed: number, length: number, alphabet: string): string {
  const rng = createRng(seed);
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

type Handler = (a: Json, db: Db, seed: number) => unknown;

function crud(kind: "Add" | "Delete" | "Modify" | "Query", name: string): Handler {
  const t = USER_TABLES[name] as { table: string; fields: string[]; key: string };
  return (a, db) => {
    const username = db.user(a["token"]);
    if (kind === "Add") {
      const record: Json = {};
      for (const f of t.fields) if (a[f] !== undefined) record[f] = a[f];
      record["username"] = username;
      db.insert(t.table, record);
      return "success";
    }
    const keyArg = name === "Alarm" && kind === "Modify" ? "from_time" : t.key;
    const item = findOwn(db, t.table, username, t.key, a[keyArg]);
    if (!item) throw new ApiBankException(`The ${name.toLowerCase()} "${str(a[keyArg])}" of user ${username} does not exist.`);
    if (kind === "Delete") {
      db.remove(t.table, str(item["id"]));
      return "success";
    }
    if (kind === "Query") return strip(item);
    const updated: Json = { ...item };
    if (name === "Alarm") updated["time"] = a["to_time"];
    else for (const f of t.fields) if (f !== t.key && a[f] !== undefined) updated[f] = a[f];
    db.put(t.table, updated);
    return "success";
  };
}

function lookup(table: string, field: string, caseless = true, transform?: (item: Json) => unknown): Handler {
  return (a, db) => {
    const key = str(a[field]).trim();
    const item = caseless ? db.getIgnoringCase(table, key) : db.get(table, key);
    if (!item) throw new ApiBankException(`No ${table} entry for "${key}".`);
    return transform ? transform(item) : "value" in item && Object.keys(item).length === 2 ? item["value"] : strip(item);
  };
}

const HANDLERS: Record<string, Handler> = {
  GetUserToken: (a, db) => {
    const account = db.get("Account", str(a["username"]));
    if (!account || account["password"] !== a["password"]) throw new ApiBankException("The username or password is incorrect.");
    return { token: account["token"] };
  },
  CheckToken: (a, db) => ({ username: db.user(a["token"]) }),
  RegisterUser: (a, db, seed) => {
    const username = str(a["username"]);
    if (db.get("Account", username)) throw new ApiBankException("The username already exists.");
    const token = randomToken(seed, 32, "abcdefghijklmnopqrstuvwxyz0123456789");
    db.put("Account", { id: username, password: a["password"], token, email: a["email"] });
    return { token };
  },
  DeleteAccount: (a, db) => {
    db.remove("Account", db.user(a["token"]));
    return { status: "success" };
  },
  ModifyPassword: (a, db) => {
    const account = db.get("Account", db.user(a["token"])) as Json;
    if (account["password"] !== a["old_password"]) throw new ApiBankException("The old password is incorrect.");
    db.put("Account", { ...account, password: a["new_password"] });
    return { status: "success" };
  },
  ForgotPassword: (a, db) => {
    if (str(a["status"]) === "Forgot Password") {
      const account = db.get("Account", str(a["username"]));
      if (!account || account["email"] !== a["email"]) throw new ApiBankException("The username or email is incorrect.");
      db.put("Account", { ...account, verification_code: APIBANK_VERIFICATION_CODE });
      return APIBANK_VERIFICATION_CODE;
    }
    if (str(a["status"]) === "Verification Code") {
      const account = db.list("Account").find((x) => x["verification_code"] !== undefined && Number(x["verification_code"]) === Number(a["verification_code"]));
      if (!account) throw new ApiBankException("The verification code is incorrect.");
      const { verification_code: _code, ...rest } = account;
      db.put("Account", { ...rest, password: a["new_password"] });
      return "success";
    }
    throw new ApiBankException(`status must be "Forgot Password" or "Verification Code"`);
  },
  QueryBalance: (a, db) => {
    const bank = db.get("Bank", db.user(a["token"]));
    if (!bank) throw new ApiBankException("The user has no bank account.");
    return bank["balance"];
  },
  OpenBankAccount: (a, db) => {
    const account = str(a["account"]);
    if (db.get("Bank", account)) throw new ApiBankException("The account already exists.");
    db.put("Bank", { id: account, password: a["password"], name: a["name"], balance: 0 });
    return "success";
  },
  QueryStock: (a, db) => {
    const stock = db.getIgnoringCase("Stock", str(a["stock_code"]).trim());
    const price = stock?.[str(a["date"]).trim()];
    if (price === undefined) throw new ApiBankException(`No price of ${str(a["stock_code"])} on ${str(a["date"])}.`);
    return price;
  },
  QueryHistoryToday: lookup("History", "date", false, (item) =>
    (Array.isArray(item["value"]) ? item["value"] : []).map((e: Json) => `Title: ${str(e["Title"])}, Date: ${str(e["Date"])}, Description: ${str(e["Description"])}`),
  ),
  QueryHealthData: (a, db) => {
    const item = db.getIgnoringCase("HealthData", str(a["user_id"]).trim());
    if (!item) throw new ApiBankException(`No health data of user ${str(a["user_id"])}.`);
    const start = str(a["start_time"]);
    const end = str(a["end_time"]);
    return (Array.isArray(item["value"]) ? (item["value"] as Json[]) : []).filter((r) => str(r["time"]) >= start && str(r["time"]) <= end);
  },
  RecordHealthData: (a, db) => {
    const id = str(a["user_id"]).trim();
    const data = Array.isArray(a["health_data"]) ? (a["health_data"] as Json[]) : [];
    const record: Json = { time: a["time"] };
    for (const d of data) if (d && typeof d === "object") record[str(d["name"])] = d["value"];
    const item = db.getIgnoringCase("HealthData", id);
    const records = item && Array.isArray(item["value"]) ? [...(item["value"] as Json[]), record] : [record];
    db.put("HealthData", { id: item ? str(item["id"]) : id, value: records });
    return "success";
  },
  AppointmentRegistration: (a, db, seed) => {
    let id = randomToken(seed, 8, "0123456789");
    while (db.get("Appointments", id)) id = String((Number(id) + 1) % 1e8).padStart(8, "0");
    db.put("Appointments", { id, patient_name: a["patient_name"], date: a["date"], doctor_name: a["doctor_name"] });
    return id;
  },
  QueryRegistration: (a, db) => {
    const name = str(a["patient_name"]).trim().toLowerCase();
    const found = db.list("Appointments").filter((i) => str(i["patient_name"]).toLowerCase() === name && str(i["date"]) === str(a["date"]).trim());
    if (found.length === 0) throw new ApiBankException(`No appointment of ${str(a["patient_name"])} on ${str(a["date"])}.`);
    return Object.fromEntries(found.map((i) => [str(i["id"]), strip(i)]));
  },
  ModifyRegistration: (a, db) => {
    const item = db.get("Appointments", str(a["appointment_id"]).trim());
    if (!item) throw new ApiBankException(`The appointment ${str(a["appointment_id"])} does not exist.`);
    db.put("Appointments", { ...item, date: a["new_appointment_date"] ?? item["date"], doctor_name: a["new_appointment_doctor"] ?? item["doctor_name"] });
    return "success";
  },
  CancelRegistration: (a, db) => {
    const id = str(a["appointment_id"]).trim();
    if (!db.get("Appointments", id)) throw new ApiBankException(`The appointment ${id} does not exist.`);
    db.remove("Appointments", id);
    return "success";
  },
  QueryScene: lookup("Scenes", "name"),
  AddScene: (a, db) => {
    const name = str(a["name"]).trim();
    if (db.getIgnoringCase("Scenes", name)) throw new ApiBankException(`The scene ${name} already exists.`);
    db.put("Scenes", { id: name, value: a["devices"] ?? [] });
    return "success";
  },
  ModifyScene: (a, db) => {
    const item = db.getIgnoringCase("Scenes", str(a["name"]).trim());
    if (!item) throw new ApiBankException(`The scene ${str(a["name"])} does not exist.`);
    db.put("Scenes", { id: item["id"], value: a["devices"] ?? [] });
    return "success";
  },
  DeleteScene: (a, db) => {
    const item = db.getIgnoringCase("Scenes", str(a["name"]).trim());
    if (!item) throw new ApiBankException(`The scene ${str(a["name"])} does not exist.`);
    db.remove("Scenes", str(item["id"]));
    return "success";
  },
  TimedSwitch: (a, db) => {
    const name = str(a["name"]).trim();
    const item = db.getIgnoringCase("TimeSwitch", name);
    if (!item) throw new ApiBankException(`The device ${name} does not exist.`);
    db.put("TimeSwitch", { id: item["id"], value: [...(Array.isArray(item["value"]) ? item["value"] : []), { time: a["time"], on: a["on"] }] });
    return "success";
  },
  CancelTimedSwitch: (a, db) => {
    const name = str(a["name"]).trim();
    const item = db.getIgnoringCase("TimeSwitch", name);
    const list = item && Array.isArray(item["value"]) ? (item["value"] as Json[]) : [];
    const kept = list.filter((s) => s["time"] !== a["time"]);
    if (!item || kept.length === list.length) throw new ApiBankException(`No timed switch of ${name} at ${str(a["time"])}.`);
    db.put("TimeSwitch", { id: item["id"], value: kept });
    return "success";
  },
  Calculator: (a) => evaluateFormula(str(a["formula"])),
  GetToday: () => APIBANK_TODAY,
  PlayMusic: (a) => `music://${str(a["music_name"]).toLowerCase()}`,
  SendEmail: () => "success",
  EmailReminder: () => "success",
  BookHotel: (a, db) =>
    db.insert("Hotel", {
      hotel_name: a["hotel_name"],
      check_in_time: a["check_in_time"],
      check_out_time: a["check_out_time"],
      room_count: a["room_count"],
      adult_count: a["adult_count"],
      child_count: a["child_count"],
    }),
  SpeechRecognition: lookup("SpeechRecognition", "url", false),
  Wiki: lookup("Wiki", "keyword"),
  SymptomSearch: lookup("Symptom", "symptom", true, (item) => (Array.isArray(item["value"]) ? (item["value"] as Json[]).map((d) => ({ name: d["name"], description: d["description"] })) : [])),
  EmergencyKnowledge: lookup("Symptom", "symptom", true, (item) => (Array.isArray(item["value"]) ? (item["value"] as Json[]).map((d) => ({ name: d["name"], aid: d["aid"] })) : [])),
  DocumentQA: (a, db) => {
    const item = db.get("QuestionAnswering", str(a["url"]).trim());
    const qa = item && Array.isArray(item["value"]) ? (item["value"] as Json[]) : [];
    const q = str(a["question"]).trim().toLowerCase();
    const hit = qa.find((x) => str(x["question"]).trim().toLowerCase() === q);
    return hit ? hit["answer"] : "The question is too difficult to answer.";
  },
  SearchEngine: (a, db) => {
    const docs = db.get("SearchEngine", "raw_documents");
    const list = docs && Array.isArray(docs["value"]) ? (docs["value"] as Json[]) : [];
    const words = str(a["keyword"]).toLowerCase().match(/[a-z0-9]+/g) ?? [];
    const scored = list
      .map((d, i) => {
        const text = `${str(d["title"])} ${str(d["abstract"])}`.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        return { d, i, score: words.reduce((s, w) => s + text.filter((t) => t === w).length, 0) };
      })
      .filter((x) => x.score > 0)
      .sort((x, y) => y.score - x.score || x.i - y.i);
    return scored.slice(0, 2).map((x) => x.d);
  },
};

for (const name of Object.keys(USER_TABLES)) {
  for (const kind of ["Add", "Delete", "Modify", "Query"] as const) HANDLERS[`${kind}${name}`] = crud(kind, name);
}

/** The names of the API-Bank APIs the responder implements (the others fall through to the next responder). */
export const APIBANK_IMPLEMENTED: readonly string[] = Object.keys(HANDLERS).sort();

function answer(ctx: ResponseContext): ResponderAnswer | undefined {
  const handler = HANDLERS[ctx.call.tool.operation.operationId ?? ctx.call.tool.name];
  if (!handler) return undefined;
  const args = (ctx.call.body !== null && typeof ctx.call.body === "object" ? ctx.call.body : ctx.call.args) as Json;
  try {
    const output = handler(args, new Db(ctx.state), ctx.seed);
    return { status: 200, body: output === undefined ? null : output, contentType: "application/json", source: "state" };
  } catch (e) {
    if (!(e instanceof ApiBankException)) throw e;
    return {
      status: 400,
      contentType: "application/problem+json",
      body: { type: "https://toolsim.dev/problems/apibank-exception", title: "API exception", status: 400, detail: e.message },
      source: "state",
      notes: [`exception: ${e.message}`],
    };
  }
}

/** The responder of the API-Bank world (see the module comment). */
export const apibankResponder: Responder = { name: "apibank", respond: answer };
