import { inputOf, sameLowerInput, sameOutcome, type ApiBankApiImpl, type ApiBankResult, type ApiEnv, sameCheckedInput } from "./apibank-api.js";
import { formatCheck, PyException, pyEquals, pyStrip, raiseIf } from "./py.js";

/*
 * API-Bank's smart-home APIs as its Python implementation behaves: scenes (named lists of devices) and timed
 * switches of devices (`apis/add_scene.py` ... `apis/cancel_timed_switch.py`).
 */

type Json = Record<string, unknown>;
const TIME = "%Y-%m-%d %H:%M:%S";

/** Devices of a scene normalized in place (names lower-cased, descriptions stripped, no duplicates), then sorted by name. */
function normalizeDevices(devices: unknown): Json[] {
  if (!Array.isArray(devices)) throw new PyException(`'${typeof devices}' object is not iterable`, "TypeError");
  const names = new Set<string>();
  for (const d of devices as Json[]) {
    if (d === null || typeof d !== "object" || !("name" in d) || !("description" in d)) throw new PyException("Invalid device format.");
    d["name"] = pyStrip(d["name"]).toLowerCase();
    d["description"] = pyStrip(d["description"]);
    if (names.has(d["name"] as string)) throw new PyException("Device name cannot be duplicated.");
    names.add(d["name"] as string);
  }
  (devices as Json[]).sort((a, b) => ((a["name"] as string) < (b["name"] as string) ? -1 : (a["name"] as string) > (b["name"] as string) ? 1 : 0));
  return devices as Json[];
}

/** The check of AddScene (`withOutputNone`: a gold output of None fails any other) and ModifyScene. */
function sceneCheck(withOutputNone: boolean) {
  return (r: ApiBankResult, g: ApiBankResult): boolean => {
    const rn = pyStrip(inputOf(r, "name")).toLowerCase();
    const gn = pyStrip(inputOf(g, "name")).toLowerCase();
    const rd = normalizeDevices(structuredClone(inputOf(r, "devices")));
    const gd = normalizeDevices(structuredClone(inputOf(g, "devices")));
    if (rn !== gn || !pyEquals(rd, gd)) return false;
    if (withOutputNone ? g.output === null && r.output !== null : !pyEquals(r.output, g.output)) return false;
    return r.exception === g.exception;
  };
}

/** The parameters of AddScene and ModifyScene. */
const SCENE_PARAMS = [
  { name: "name", type: "str" },
  { name: "devices", type: "list" },
];

/** A scene's name as the Python reads it (stripped, lower case), never empty. */
function sceneName(a: Json): string {
  const name = pyStrip(a["name"]).toLowerCase();
  if (name === "") throw new PyException("Scene name cannot be empty.");
  return name;
}

/** AddScene and ModifyScene: the scene's devices written under its name, which must be new (add) or known (modify). */
function writeScene(a: Json, env: ApiEnv, mode: "add" | "modify"): string {
  const name = sceneName(a);
  const devices = normalizeDevices(a["devices"]);
  const table = env.table("Scenes");
  if (mode === "add" && table.has(name)) throw new PyException("Scene name already exists.");
  if (mode === "modify" && !table.has(name)) throw new PyException("The scene does not exist.");
  table.set(name, devices);
  return "success";
}

/** The timed-switch checks' common part: the same device name and the same time. */
function sameSwitch(r: ApiBankResult, g: ApiBankResult): boolean {
  return sameLowerInput(r, g, "name") && sameCheckedInput(r, g, "time", TIME);
}

/** The smart-home APIs of the level-1/2 set, in API-Bank's order. */
export const HOME_APIS: ApiBankApiImpl[] = [
  {
    name: "AddScene",
    set: "apis",
    params: SCENE_PARAMS,
    call: (a, env) => writeScene(a, env, "add"),
    check: sceneCheck(true),
  },
  {
    name: "ModifyScene",
    set: "apis",
    params: SCENE_PARAMS,
    call: (a, env) => writeScene(a, env, "modify"),
    check: sceneCheck(false),
  },
  {
    name: "DeleteScene",
    set: "apis",
    params: [{ name: "name", type: "str" }],
    call(a, env) {
      const name = sceneName(a);
      const table = env.table("Scenes");
      if (!table.has(name)) throw new PyException("The scene does not exist.");
      table.delete(name);
      return "success";
    },
    check: (r, g) => sameLowerInput(r, g, "name") && sameOutcome(r, g),
  },
  {
    name: "QueryScene",
    set: "apis",
    params: [{ name: "name", type: "str" }],
    call(a, env) {
      const name = sceneName(a);
      const table = env.table("Scenes");
      if (!table.has(name)) throw new PyException("Scene not found.");
      return table.get(name);
    },
    check: (r, g) => sameLowerInput(r, g, "name") && sameOutcome(r, g),
  },
  {
    name: "TimedSwitch",
    set: "apis",
    params: [
      { name: "name", type: "str" },
      { name: "time", type: "str" },
      { name: "on", type: "bool" },
    ],
    call(a, env) {
      const name = pyStrip(a["name"]).toLowerCase();
      if (name === "") throw new PyException("Name cannot be empty.");
      const time = raiseIf(formatCheck(a["time"], TIME));
      const table = env.table("TimeSwitch");
      const list = table.has(name) ? (table.get(name) as Json[]) : [];
      const hit = list.find((s) => s["time"] === time);
      if (hit) hit["on"] = a["on"];
      else list.push({ time, on: a["on"] });
      table.set(name, list);
      return "success";
    },
    check(r, g) {
      return sameSwitch(r, g) && pyEquals(inputOf(r, "on"), inputOf(g, "on")) && sameOutcome(r, g);
    },
  },
  {
    name: "CancelTimedSwitch",
    set: "apis",
    params: [
      { name: "name", type: "str" },
      { name: "time", type: "str" },
    ],
    call(a, env) {
      const name = pyStrip(a["name"]).toLowerCase();
      if (name === "") throw new PyException("name cannot be empty.");
      const time = raiseIf(formatCheck(a["time"], TIME));
      const table = env.table("TimeSwitch");
      if (!table.has(name)) throw new PyException("device name does not exist.");
      const list = table.get(name) as Json[];
      const i = list.findIndex((s) => s["time"] === time);
      if (i < 0) throw new PyException("time does not exist.");
      list.splice(i, 1);
      table.set(name, list);
      return "success";
    },
    check(r, g) {
      return sameSwitch(r, g) && sameOutcome(r, g);
    },
  },
];
