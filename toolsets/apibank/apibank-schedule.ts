import { assertSameName, inputOf, inputWithout, sameAll, type ApiBankApiImpl, type ApiBankResult, type ApiEnv, sameOutcome } from "./apibank-api.js";
import { asStr, contentSatisfied, PyException, pyEquals, pyStrip, strptime } from "./py.js";

/*
 * API-Bank's schedule APIs, as its Python implementation behaves: agenda items, alarms, reminders and meetings
 * of the token's user (`apis/add_agenda.py` ... `apis/query_meeting.py`). Items are matched on their first
 * field or their time, the first match wins, in the database's order.
 */

type Json = Record<string, unknown>;
const TIME = "%Y-%m-%d %H:%M:%S";

function truthy(v: unknown): boolean {
  return !(v === null || v === undefined || v === "" || v === false || v === 0 || (Array.isArray(v) && v.length === 0));
}

/** The content check of the agenda APIs: word overlap on the content, same time, location, output and exception. */
function agendaCheck(r: ApiBankResult, g: ApiBankResult): boolean {
  const ok = contentSatisfied(asStr(inputOf(r, "content"), "split"), asStr(inputOf(g, "content"), "split"));
  return ok && pyEquals(inputOf(r, "time"), inputOf(g, "time")) && pyEquals(inputOf(r, "location"), inputOf(g, "location")) && sameOutcome(r, g);
}

/** The content check of the reminder APIs: lower-cased word overlap, same time, output and exception. */
function reminderCheck(r: ApiBankResult, g: ApiBankResult): boolean {
  const ok = contentSatisfied(asStr(inputOf(r, "content"), "lower").toLowerCase(), asStr(inputOf(g, "content"), "lower").toLowerCase());
  return ok && pyEquals(inputOf(r, "time"), inputOf(g, "time")) && sameOutcome(r, g);
}

/** The meeting check: overlap on the topic, the rest of the input equal, same output and exception. */
function meetingCheck(r: ApiBankResult, g: ApiBankResult): boolean {
  const ok = contentSatisfied(asStr(inputOf(r, "meeting_topic"), "split"), asStr(inputOf(g, "meeting_topic"), "split"));
  return ok && pyEquals(inputWithout(r, "meeting_topic"), inputWithout(g, "meeting_topic")) && sameOutcome(r, g);
}

/** The check of the delete APIs: both succeeded at the same `time` (a meeting has none: KeyError), else same output and exception. */
function deleteCheck(r: ApiBankResult, g: ApiBankResult): boolean {
  if (g.output === "success" && r.output === "success") return pyEquals(inputOf(r, "time"), inputOf(g, "time"));
  return sameOutcome(r, g);
}

/** `max(int(i) for i in keys) + 1`, or 0 for an empty table, as a str key. */
function nextStrKey(keys: string[]): string {
  if (keys.length === 0) return "0";
  let max = -Infinity;
  for (const k of keys) {
    const t = k.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new PyException(`invalid literal for int() with base 10: '${k}'`, "ValueError");
    max = Math.max(max, Number(t));
  }
  return String(max + 1);
}

const TOKEN = { name: "token", type: "str" };
const AGENDA = [TOKEN, { name: "content", type: "str" }, { name: "time", type: "str" }, { name: "location", type: "str" }];
const ALARM = [TOKEN, { name: "time", type: "str" }];
const REMINDER = [TOKEN, { name: "content", type: "str" }, { name: "time", type: "str" }];
const MEETING = [TOKEN, { name: "meeting_topic", type: "str" }, { name: "start_time", type: "str" }, { name: "end_time", type: "str" }, { name: "location", type: "str" }, { name: "attendees", type: "list(str)" }];

function own(env: ApiEnv, db: string, username: string): Array<[string, Json]> {
  return env.table(db).entries().filter(([, v]) => (v as Json)["username"] === username) as Array<[string, Json]>;
}

/**
 * The token's user and the first of their items in a table that matches the call on its `key` field or on its
 * time (the Python's `or`); `time` names the item's time field, `callTime` the call's (default the same).
 */
function ownedItem(env: ApiEnv, db: string, a: Json, key: string | undefined, time: string, callTime = time): { username: string; hit: [string, Json] | undefined } {
  const username = env.checkToken(a["token"]);
  const hit = own(env, db, username).find(([, v]) => (key !== undefined && pyEquals(v[key], a[key])) || pyEquals(v[time], a[callTime]));
  return { username, hit };
}

/** The Python's "You have no <noun> about ..." (when the call names the item) or "... at time : ..." (when it gives a time). */
function throwNoItem(noun: string, a: Json, key: string, time: string): void {
  if (truthy(a[key])) throw new PyException(`You have no ${noun} about ${String(a[key])}`);
  if (truthy(a[time])) throw new PyException(`You have no ${noun} at time : ${String(a[time])}`);
}

/**
 * DeleteAgenda and DeleteMeeting: the token user's first matching item deleted; "success" also when the call names
 * nothing (both Pythons say "meeting" when nothing matches).
 */
function deleteOwned(env: ApiEnv, db: string, a: Json, key: string, time: string): string {
  const { hit } = ownedItem(env, db, a, key, time);
  if (hit) {
    env.table(db).delete(hit[0]);
    return "success";
  }
  throwNoItem("meeting", a, key, time);
  return "success";
}

/** The reminders' input checks: a valid time and some content. */
function reminderInput(a: Json): void {
  strptime(a["time"], TIME);
  if (pyStrip(a["content"]) === "") throw new PyException("Content should not be null");
}

/** The reminder a Delete, Modify or Query call is about (its input checked first); the Python's error when there is none. */
function ownedReminder(env: ApiEnv, a: Json): [string, Json] {
  reminderInput(a);
  const { hit } = ownedItem(env, "Reminder", a, "content", "time");
  if (!hit) throw new PyException(`You have no reminder about ${String(a["content"])} or at time : ${String(a["time"])}`);
  return hit;
}

function meetingTimes(a: Json): void {
  if (truthy(a["start_time"])) strptime(a["start_time"], TIME);
  if (truthy(a["end_time"])) strptime(a["end_time"], TIME);
  if (pyStrip(a["meeting_topic"]) === "" && !truthy(a["start_time"])) throw new PyException("Meeting Topic and start_time should not be null both");
}

/** The schedule APIs of the level-1/2 set. */
export const SCHEDULE_APIS: ApiBankApiImpl[] = [
  {
    name: "AddAgenda",
    set: "apis",
    params: AGENDA,
    call(a, env) {
      strptime(a["time"], TIME);
      if (pyStrip(a["content"]) === "") throw new PyException("Content should not be null");
      const table = env.table("Agenda");
      const id = table.size + 1;
      const username = env.checkToken(a["token"]);
      table.setIntKey(id, { username, content: a["content"], time: a["time"], location: a["location"] });
      return "success";
    },
    check: (r, g) => (assertSameName(r, g), agendaCheck(r, g)),
  },
  {
    name: "DeleteAgenda",
    set: "apis",
    params: AGENDA,
    call(a, env) {
      if (truthy(a["time"])) strptime(a["time"], TIME);
      return deleteOwned(env, "Agenda", a, "content", "time");
    },
    check: deleteCheck,
  },
  {
    name: "ModifyAgenda",
    set: "apis",
    params: AGENDA,
    call(a, env) {
      if (truthy(a["time"])) strptime(a["time"], TIME);
      const { username, hit } = ownedItem(env, "Agenda", a, "content", "time");
      if (hit) {
        env.table("Agenda").set(hit[0], { username, content: a["content"], time: a["time"], location: a["location"] });
        return "success";
      }
      throwNoItem("agenda", a, "content", "time");
      return "Error"; // the Python returns Exception('Error') without raising it
    },
    check: agendaCheck,
  },
  {
    name: "QueryAgenda",
    set: "apis",
    params: AGENDA,
    call(a, env) {
      if (truthy(a["time"])) strptime(a["time"], TIME);
      const { hit } = ownedItem(env, "Agenda", a, "content", "time");
      if (hit) return hit[1];
      throwNoItem("agenda", a, "content", "time");
      throw new PyException("Error");
    },
    check: agendaCheck,
  },
  {
    name: "AddAlarm",
    set: "apis",
    params: ALARM,
    call(a, env) {
      strptime(a["time"], TIME);
      const table = env.table("Alarm");
      const id = table.size + 1;
      const username = env.checkToken(a["token"]);
      table.setIntKey(id, { username, time: a["time"] });
      return "success";
    },
    check: sameAll,
  },
  {
    name: "DeleteAlarm",
    set: "apis",
    params: ALARM,
    call(a, env) {
      strptime(a["time"], TIME);
      const { hit } = ownedItem(env, "Alarm", a, undefined, "time");
      if (hit) {
        env.table("Alarm").delete(hit[0]);
        return "success";
      }
      if (truthy(a["time"])) throw new PyException(`You have no alarm clock at time : ${String(a["time"])}`);
      return "success";
    },
    check: sameAll,
  },
  {
    name: "ModifyAlarm",
    set: "apis",
    params: [TOKEN, { name: "from_time", type: "str" }, { name: "to_time", type: "str" }],
    call(a, env) {
      strptime(a["from_time"], TIME);
      strptime(a["to_time"], TIME);
      const { username, hit } = ownedItem(env, "Alarm", a, undefined, "time", "from_time");
      if (!hit) throw new PyException(`You have no agenda at time : ${String(a["from_time"])}`);
      env.table("Alarm").set(hit[0], { username, time: a["to_time"] });
      return "success";
    },
    check: sameAll,
  },
  {
    name: "QueryAlarm",
    set: "apis",
    params: ALARM,
    call(a, env) {
      strptime(a["time"], TIME);
      const { hit } = ownedItem(env, "Alarm", a, undefined, "time");
      if (!hit) throw new PyException(`You have no alarm clock at time : ${String(a["time"])}`);
      return hit[1];
    },
    check: sameAll,
  },
  {
    name: "AddReminder",
    set: "apis",
    params: REMINDER,
    call(a, env) {
      reminderInput(a);
      const table = env.table("Reminder");
      const id = nextStrKey(table.keys());
      const username = env.checkToken(a["token"]);
      table.set(id, { username, content: a["content"], time: a["time"] });
      return "success";
    },
    check: (r, g) => (assertSameName(r, g), reminderCheck(r, g)),
  },
  {
    name: "DeleteReminder",
    set: "apis",
    params: REMINDER,
    call(a, env) {
      const hit = ownedReminder(env, a);
      env.table("Reminder").delete(hit[0]);
      return "success";
    },
    check: deleteCheck,
  },
  {
    name: "ModifyReminder",
    set: "apis",
    params: REMINDER,
    call(a, env) {
      const hit = ownedReminder(env, a);
      env.table("Reminder").set(hit[0], { ...hit[1], content: a["content"], time: a["time"] });
      return "success";
    },
    check: (r, g) => (assertSameName(r, g), reminderCheck(r, g)),
  },
  {
    name: "QueryReminder",
    set: "apis",
    params: REMINDER,
    call(a, env) {
      const hit = ownedReminder(env, a);
      return hit[1];
    },
    check: reminderCheck,
  },
  {
    name: "AddMeeting",
    set: "apis",
    params: MEETING,
    call(a, env) {
      strptime(a["start_time"], TIME);
      strptime(a["end_time"], TIME);
      if (pyStrip(a["meeting_topic"]) === "") throw new PyException("Meeting Topic should not be null");
      const table = env.table("Meeting");
      const id = nextStrKey(table.keys());
      const username = env.checkToken(a["token"]);
      table.set(id, { username, meeting_topic: a["meeting_topic"], start_time: a["start_time"], end_time: a["end_time"], location: a["location"], attendees: a["attendees"] });
      return "success";
    },
    check: meetingCheck,
  },
  {
    name: "DeleteMeeting",
    set: "apis",
    params: MEETING,
    call(a, env) {
      meetingTimes(a);
      return deleteOwned(env, "Meeting", a, "meeting_topic", "start_time");
    },
    check: deleteCheck,
  },
  {
    name: "ModifyMeeting",
    set: "apis",
    params: MEETING,
    call(a, env) {
      meetingTimes(a);
      const { hit } = ownedItem(env, "Meeting", a, "meeting_topic", "start_time");
      if (hit) {
        const item = { ...hit[1] };
        if (truthy(a["meeting_topic"])) item["meeting_topic"] = a["meeting_topic"];
        if (truthy(a["start_time"])) {
          item["start_time"] = a["start_time"];
          item["end_time"] = a["end_time"];
        }
        env.table("Meeting").set(hit[0], item);
        return "success";
      }
      throwNoItem("meeting", a, "meeting_topic", "start_time");
      return "success";
    },
    check: meetingCheck,
  },
  {
    name: "QueryMeeting",
    set: "apis",
    params: MEETING,
    call(a, env) {
      meetingTimes(a);
      const { hit } = ownedItem(env, "Meeting", a, "meeting_topic", "start_time");
      if (hit) return hit[1];
      throwNoItem("meeting", a, "meeting_topic", "start_time");
      return "Error"; // the Python returns Exception('Error') without raising it
    },
    check: meetingCheck,
  },
];
