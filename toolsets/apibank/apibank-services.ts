import { createRng } from "../../specs/seed.js";
import { searchDocuments } from "./apibank-db.js";
import { inputOf, sameAll, UncaughtPyError, type ApiBankApiImpl, type ApiBankResult, type ApiEnv, sameOutcome, sameCheckedInput } from "./apibank-api.js";
import { apiBankCalculate } from "./calculator.js";
import { asStr, compareDateTime, formatCheck, keyError, PyException, pyEquals, pyStr, pyStrip, raiseIf, sameChecked, strftime, strptime } from "./py.js";
import { searchRanking } from "./search-engine.js";
import { HOME_APIS } from "./apibank-home.js";

/*
 * API-Bank's other level-1/2 APIs as its Python implementation behaves: hospital registrations, health data,
 * the smart-home APIs (`apibank-home.ts`), hotel bookings, the knowledge lookups over the databases (history,
 * stocks, wiki, symptoms, documents, speech, search engine), Calculator, GetToday, PlayMusic, SendEmail.
 * Dictionary, Translate and ImageCaption call external services in API-Bank (`external`): they are described
 * here and answered by the next responder.
 */

type Json = Record<string, unknown>;
const DATE = "%Y-%m-%d";
const TIME = "%Y-%m-%d %H:%M:%S";

function historyDate(date: unknown): string | PyException {
  const s = pyStrip(date);
  const parts = s.split("-");
  const t = parts.length === 3 && (parts[0] as string).length !== 4 ? [(parts[0] as string).padStart(4, "0"), parts[1], parts[2]].join("-") : s;
  try {
    return strftime(strptime(t, DATE), "%m-%d");
  } catch {
    try {
      return strftime(strptime(t, "%m-%d"), "%m-%d");
    } catch (e) {
      if (e instanceof PyException) return e;
      throw e;
    }
  }
}

function stockCheck(code: unknown, date: unknown): [string | null, string | PyException] {
  const c = asStr(code, "upper").toUpperCase().trim();
  return [c === "" ? null : c, formatCheck(date, DATE)];
}

function healthCheck(userId: unknown, start: unknown, end: unknown): [string | null, string | PyException, string | PyException] {
  const u = asStr(userId, "upper").toUpperCase().trim();
  return [u === "" ? null : u, formatCheck(start, TIME), formatCheck(end, TIME)];
}

function lookupKey(table: { has(k: string): boolean }, key: string, message: string): void {
  if (!table.has(key)) throw new PyException(message);
}


/** The services of the level-1/2 set. */
export const SERVICE_APIS: ApiBankApiImpl[] = [
  {
    name: "AppointmentRegistration",
    set: "apis",
    params: [
      { name: "patient_name", type: "str" },
      { name: "date", type: "str" },
      { name: "doctor_name", type: "str" },
    ],
    call(a, env) {
      const patient = pyStrip(a["patient_name"]);
      const doctor = pyStrip(a["doctor_name"]);
      if (patient === "" || doctor === "") throw new PyException("Patient name or doctor name cannot be empty.");
      const date = raiseIf(formatCheck(a["date"], DATE));
      const table = env.table("Appointments");
      for (const [, v] of table.entries()) {
        const item = v as Json;
        if (item["patient_name"] === patient && sameChecked(formatCheck(item["date"], DATE), date)) {
          throw new PyException(item["doctor_name"] === doctor ? "This appointment has already been registered." : "This patient has already been registered in this day.");
        }
      }
      const rng = createRng(env.seed);
      let id = String(10000000 + Math.floor(rng.next() * 90000000));
      while (table.has(id)) id = String(10000000 + Math.floor(rng.next() * 90000000));
      table.set(id, { patient_name: patient, date, doctor_name: doctor });
      return id;
    },
    // The id is random: the inputs (names stripped, dates normalized) and the exception count.
    check(r, g) {
      const same = (k: string): boolean => pyStrip(inputOf(r, k)) === pyStrip(inputOf(g, k));
      if (!same("patient_name") || !same("doctor_name")) return false;
      if (!sameCheckedInput(r, g, "date", DATE)) return false;
      if (g.output === null && r.output !== null) return false;
      return r.exception === g.exception;
    },
  },
  {
    name: "QueryRegistration",
    set: "apis",
    params: [
      { name: "patient_name", type: "str" },
      { name: "date", type: "str" },
    ],
    call(a, env) {
      const patient = pyStrip(a["patient_name"]);
      const date = raiseIf(formatCheck(a["date"], DATE));
      const out: Json = {};
      for (const [id, v] of env.table("Appointments").entries()) {
        const item = v as Json;
        if (item["patient_name"] === patient && sameChecked(formatCheck(item["date"], DATE), date)) out[id] = item;
      }
      if (Object.keys(out).length === 0) throw new PyException("No appointments found.");
      return out;
    },
    check(r, g) {
      if (pyStrip(inputOf(r, "patient_name")) !== pyStrip(inputOf(g, "patient_name"))) return false;
      if (!sameCheckedInput(r, g, "date", DATE)) return false;
      return sameOutcome(r, g);
    },
  },
  {
    name: "ModifyRegistration",
    set: "apis",
    params: [
      { name: "appointment_id", type: "str" },
      { name: "new_appointment_date", type: "str", default: null },
      { name: "new_appointment_doctor", type: "str", default: null },
    ],
    call(a, env) {
      const id = pyStrip(a["appointment_id"]);
      const table = env.table("Appointments");
      if (!table.has(id)) throw new PyException("The appointment ID does not exist.");
      const date: string | PyException | null = a["new_appointment_date"] === null ? null : formatCheck(a["new_appointment_date"], DATE);
      let doctor: string | null = null;
      if (a["new_appointment_doctor"] !== null) {
        doctor = pyStrip(a["new_appointment_doctor"]);
        if (doctor === "") throw new PyException("Fail because the doctor name is empty.");
      }
      if (date instanceof PyException) throw date;
      const item = table.get(id) as Json;
      if (date === null && doctor === null) throw new PyException("Fail because no modification is made.");
      if (date === null) {
        if (doctor === item["doctor_name"]) throw new PyException("Fail because doctor is not changed.");
        item["doctor_name"] = doctor;
      } else if (doctor === null) {
        if (date === item["date"]) throw new PyException("Fail because date is not changed.");
        item["date"] = date;
      } else {
        if (date === item["date"] && doctor === item["doctor_name"]) throw new PyException("Fail because no modification is made.");
        if (date === item["date"]) throw new PyException("Fail because date is not changed.");
        if (doctor === item["doctor_name"]) throw new PyException("Fail because doctor is not changed.");
        item["date"] = date;
        item["doctor_name"] = doctor;
      }
      table.set(id, item);
      return "success";
    },
    check(r, g) {
      const norm = (x: ApiBankResult): [string, unknown, unknown] => {
        const d = inputOf(x, "new_appointment_date");
        const doc = inputOf(x, "new_appointment_doctor");
        return [pyStrip(pyStr(inputOf(x, "appointment_id"))), d === null ? null : formatCheck(d, DATE), doc === null ? null : pyStrip(doc)];
      };
      const [ri, rd, rdoc] = norm(r);
      const [gi, gd, gdoc] = norm(g);
      return ri === gi && sameChecked(rd as string | null, gd as string | null) && rdoc === gdoc && sameOutcome(r, g);
    },
  },
  {
    name: "CancelRegistration",
    set: "apis",
    params: [{ name: "appointment_id", type: "str" }],
    call(a, env) {
      const id = pyStrip(a["appointment_id"]);
      const table = env.table("Appointments");
      if (!table.has(id)) throw new PyException("The appointment ID is incorrect.");
      table.delete(id);
      return "success";
    },
    check: (r, g) => pyStrip(inputOf(r, "appointment_id")) === pyStrip(inputOf(g, "appointment_id")) && sameOutcome(r, g),
  },
  {
    name: "QueryHealthData",
    set: "apis",
    params: [
      { name: "user_id", type: "str" },
      { name: "start_time", type: "str" },
      { name: "end_time", type: "str" },
    ],
    call(a, env) {
      const [user, start, end] = healthCheck(a["user_id"], a["start_time"], a["end_time"]);
      if (user === null) throw new PyException("The user id cannot be empty.");
      if (start instanceof PyException && end instanceof PyException) throw new PyException(`${start.message}; ${end.message}`);
      if (start instanceof PyException) throw start;
      if (end instanceof PyException) throw end;
      const s = strptime(start, TIME);
      const e = strptime(end, TIME);
      if (compareDateTime(s, e) > 0) throw new PyException("The start time cannot be later than the end time.");
      const table = env.table("HealthData");
      if (!table.has(user)) throw new PyException("The user id does not exist.");
      const records = (table.get(user) as Json[]).filter((r) => {
        const t = strptime(r["time"], TIME);
        return compareDateTime(t, s) >= 0 && compareDateTime(t, e) <= 0;
      });
      if (records.length === 0) throw new PyException("There is no health data in the given time span.");
      return records;
    },
    check(r, g) {
      const [ru, rs, re] = healthCheck(inputOf(r, "user_id"), inputOf(r, "start_time"), inputOf(r, "end_time"));
      const [gu, gs, ge] = healthCheck(inputOf(g, "user_id"), inputOf(g, "start_time"), inputOf(g, "end_time"));
      return ru === gu && sameChecked(rs, gs) && sameChecked(re, ge) && sameOutcome(r, g);
    },
  },
  {
    name: "RecordHealthData",
    set: "apis",
    params: [
      { name: "user_id", type: "str" },
      { name: "time", type: "str" },
      { name: "health_data", type: "list", default: null },
    ],
    call(a, env) {
      const user = asStr(a["user_id"], "upper").toUpperCase().trim();
      if (user === "") throw new PyException("The user id cannot be empty.");
      const time = raiseIf(formatCheck(a["time"], TIME));
      const data = a["health_data"];
      if (data === null || data === undefined) throw new PyException("The health data cannot be empty.");
      if (!Array.isArray(data) || data.length === 0) throw new PyException("The health data cannot be empty.");
      const names = new Set<unknown>();
      for (const d of data as Json[]) {
        if (d === null || typeof d !== "object" || !("name" in d)) throw new PyException("The health data has invalid format.");
        if (names.has(d["name"])) throw new PyException("The health data cannot contain duplicate items.");
        names.add(d["name"]);
      }
      const table = env.table("HealthData");
      const records = table.has(user) ? (table.get(user) as Json[]) : [];
      let target: Json | undefined;
      for (const rec of records) if (rec["time"] === time) target = rec;
      for (const d of data as Json[]) if (!("value" in d)) throw keyError("value");
      if (target) for (const d of data as Json[]) target[String(d["name"])] = d["value"];
      else records.push(Object.fromEntries([["time", time], ...(data as Json[]).map((d) => [String(d["name"]), d["value"]])]));
      table.set(user, records);
      return "success";
    },
    check(r, g) {
      const ru = pyStr(inputOf(r, "user_id")).toUpperCase().trim();
      const gu = asStr(inputOf(g, "user_id"), "upper").toUpperCase().trim();
      if (ru !== gu) return false;
      if (!sameCheckedInput(r, g, "time", TIME)) return false;
      inputOf(r, "health_data");
      inputOf(g, "health_data");
      return sameOutcome(r, g);
    },
  },
  ...HOME_APIS,
  {
    name: "BookHotel",
    set: "apis",
    params: [
      { name: "hotel_name", type: "str" },
      { name: "check_in_time", type: "str" },
      { name: "check_out_time", type: "str" },
      { name: "room_count", type: "int" },
      { name: "adult_count", type: "int" },
      { name: "child_count", type: "int" },
    ],
    call(a, env) {
      const checkIn = strptime(a["check_in_time"], DATE);
      const checkOut = strptime(a["check_out_time"], DATE);
      const order = { hotel_name: a["hotel_name"], check_in_time: a["check_in_time"], check_out_time: a["check_out_time"], room_count: a["room_count"], adult_count: a["adult_count"], child_count: a["child_count"] };
      if ((a["adult_count"] as number) > 2 && pyEquals(a["room_count"], 1)) throw new PyException("The number of adults is greater than 2. Two rooms are ordered.");
      const table = env.table("Hotel");
      for (const [, v] of table.entries()) {
        const item = v as Json;
        if (item["hotel_name"] !== a["hotel_name"]) continue;
        const oi = strptime(item["check_in_time"], DATE);
        const oo = strptime(item["check_out_time"], DATE);
        if ((compareDateTime(checkIn, oi) >= 0 && compareDateTime(checkIn, oo) < 0) || (compareDateTime(checkOut, oi) > 0 && compareDateTime(checkOut, oo) <= 0)) throw new PyException("The room is not available.");
      }
      const id = String(table.size + 1);
      table.set(id, order);
      return id;
    },
    check: sameAll,
  },
  {
    name: "QueryHistoryToday",
    set: "apis",
    params: [{ name: "date", type: "str" }],
    call(a, env) {
      const date = historyDate(a["date"]);
      if (date instanceof PyException) throw date;
      const table = env.table("History");
      lookupKey(table, date, "The date is not in the database.");
      return (table.get(date) as Json[]).map((h) => `Title: ${pyStrip(h["Title"])}, Date: ${pyStrip(h["Date"])}, Description: ${pyStrip(h["Description"])}`);
    },
    check: (r, g) => sameChecked(historyDate(inputOf(r, "date")), historyDate(inputOf(g, "date"))) && sameOutcome(r, g),
  },
  {
    name: "QueryStock",
    set: "apis",
    params: [
      { name: "stock_code", type: "str" },
      { name: "date", type: "str" },
    ],
    call(a, env) {
      const [code, date] = stockCheck(a["stock_code"], a["date"]);
      if (code === null) throw new PyException("The stock code cannot be empty.");
      if (date instanceof PyException) throw date;
      const table = env.table("Stock");
      lookupKey(table, code, "The stock code does not exist.");
      const prices = table.get(code) as Json;
      if (!(date in prices)) throw new PyException("The stock price of this date is not maintained.");
      return prices[date];
    },
    check(r, g) {
      const [rc, rd] = stockCheck(inputOf(r, "stock_code"), inputOf(r, "date"));
      const [gc, gd] = stockCheck(inputOf(g, "stock_code"), inputOf(g, "date"));
      return rc === gc && sameChecked(rd, gd) && sameOutcome(r, g);
    },
  },
  {
    name: "Wiki",
    set: "apis",
    params: [{ name: "keyword", type: "str" }],
    call(a, env) {
      const key = pyStrip(asStr(a["keyword"], "replace").replace(/_/g, " ")).toLowerCase();
      const table = env.table("Wiki");
      if (!table.has(key)) throw new PyException("Keyword not found.");
      const item = table.get(key) as Json;
      if (!("url" in item)) throw keyError("url");
      if (!("summary" in item)) throw keyError("summary");
      return { url: item["url"], summary: item["summary"] };
    },
    check: (r, g) => r.api_name === g.api_name && sameOutcome(r, g),
  },
  ...(["SymptomSearch", "EmergencyKnowledge"] as const).map(
    (name): ApiBankApiImpl => ({
      name,
      set: "apis",
      params: [{ name: "symptom", type: "str" }],
      call(a, env) {
        const symptom = pyStrip(a["symptom"]).toLowerCase();
        if (symptom === "") throw new PyException("The symptom cannot be empty.");
        const table = env.table("Symptom");
        if (!table.has(symptom)) throw new PyException("The symptom does not exist.");
        const field = name === "SymptomSearch" ? "description" : "aid";
        return (table.get(symptom) as Json[]).map((item) => {
          if (!("name" in item)) throw keyError("name");
          if (!(field in item)) throw keyError(field);
          return { name: item["name"], [field]: item[field] };
        });
      },
      check(r, g) {
        const s = (x: ApiBankResult): string => {
          const v = pyStrip(inputOf(x, "symptom")).toLowerCase();
          if (v === "" && name === "SymptomSearch") throw new PyException("The symptom cannot be empty.");
          return v;
        };
        return s(r) === s(g) && sameOutcome(r, g);
      },
    }),
  ),
  {
    name: "DocumentQA",
    set: "apis",
    params: [
      { name: "url", type: "str" },
      { name: "question", type: "str" },
    ],
    call(a, env) {
      const url = pyStrip(a["url"]);
      const question = pyStrip(a["question"]);
      if (question === "") throw new PyException("The question is empty.");
      const table = env.table("QuestionAnswering");
      if (!table.has(url)) throw new PyException("The document of this url failed to be processed.");
      const qa = table.get(url) as Json;
      if (!(question in qa)) return "The question is too difficult to answer.";
      return qa[question];
    },
    check: (r, g) => pyStrip(inputOf(r, "url")) === pyStrip(inputOf(g, "url")) && pyStrip(inputOf(r, "question")) === pyStrip(inputOf(g, "question")) && sameOutcome(r, g),
  },
  {
    name: "SpeechRecognition",
    set: "apis",
    params: [{ name: "url", type: "str" }],
    call(a, env) {
      const url = pyStrip(a["url"]);
      if (!url.endsWith(".wav")) throw new PyException("The url should end with .wav.");
      const table = env.table("SpeechRecognition");
      if (!table.has(url)) throw new PyException("The audio of this url failed to be processed.");
      return table.get(url);
    },
    check: sameAll,
  },
  {
    name: "SearchEngine",
    set: "apis",
    params: [{ name: "keyword", type: "str" }],
    call(a, env) {
      const keyword = pyStrip(a["keyword"]);
      const docs = searchDocuments(env.store);
      return searchRanking(
        docs.map((d) => d.tokens),
        keyword,
      ).map((i) => (docs[i] as { doc: Json }).doc);
    },
    check(r, g) {
      if (r.api_name !== g.api_name || r.exception !== g.exception) return false;
      const order = (x: unknown): Json[] => {
        if (!Array.isArray(x)) return [];
        return [...(x as Json[])].sort((p, q) => {
          const a = `${String(p["title"])}${String(p["abstract"])}`;
          const b = `${String(q["title"])}${String(q["abstract"])}`;
          return a < b ? 1 : a > b ? -1 : 0;
        });
      };
      if (r.output === null || g.output === null) throw new PyException("local variable 'response_output' referenced before assignment", "UnboundLocalError");
      return pyEquals(order(r.output), order(g.output));
    },
  },
  {
    name: "Calculator",
    set: "apis",
    params: [{ name: "formula", type: "str" }],
    call: (a) => apiBankCalculate(a["formula"]),
    check: (r, g) => asStr(inputOf(r, "formula"), "replace").replace(/ /g, "") === asStr(inputOf(g, "formula"), "replace").replace(/ /g, "") && sameOutcome(r, g),
  },
  {
    name: "GetToday",
    set: "apis",
    params: [],
    kwargs: true,
    input: () => null,
    call: () => "2023-03-31",
    check: (r) => r.output !== null && r.exception === null && r.input === null,
  },
  {
    name: "PlayMusic",
    set: "apis",
    params: [{ name: "music_name", type: "str" }],
    call(a) {
      const name = pyStrip(asStr(a["music_name"], "lower").toLowerCase());
      if (name === "") throw new PyException("The music name cannot be empty.");
      return `music://${name}`;
    },
    check: (r, g) => pyEquals(r.output, g.output),
  },
  {
    name: "SendEmail",
    set: "apis",
    params: [
      { name: "receiver", type: "str" },
      { name: "subject", type: "str" },
      { name: "content", type: "str" },
    ],
    call(a) {
      const receiver = pyStrip(a["receiver"]);
      if (!/^[a-z0-9]+[._]?[a-z0-9]+[@]\w+[.]\w{2,3}$/.test(receiver)) throw new PyException("Email address of the receiver is invalid.");
      if (pyStrip(a["subject"]) === "") throw new PyException("Subject cannot be empty.");
      if (pyStrip(a["content"]) === "") throw new PyException("Content cannot be empty.");
      return "success";
    },
    check(r, g) {
      const s = (x: ApiBankResult, k: string): string => pyStrip(inputOf(x, k));
      return s(r, "receiver").toLowerCase() === s(g, "receiver").toLowerCase() && s(r, "subject") === s(g, "subject") && s(r, "content") === s(g, "content") && sameOutcome(r, g);
    },
  },
];

/** APIs that call an external service in API-Bank (a dictionary, Google Translate, an image captioner): not simulated. */
export const EXTERNAL_APIS: ReadonlySet<string> = new Set(["Dictionary", "Translate", "ImageCaption"]);

/** An external API called in a world that has none: Python's error escapes as it would offline. */
export function externalUnavailable(name: string): never {
  throw new UncaughtPyError(`${name} needs an external service that the simulation does not have`, "ConnectionError");
}

export type { ApiEnv };
