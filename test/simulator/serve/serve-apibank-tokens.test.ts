import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { servedApiOf } from "../../../simulator/serve/load-apis.js";
import { startServe, type RunningServe } from "../../../simulator/serve/start-serve.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";

/*
 * API-Bank's APIs check tokens themselves, and issue new ones at run time (RegisterUser; GetUserToken for a known
 * user): a toolset imported from API-Bank marks its auth `checkedBy: api`, so `toolsim serve` lets any token
 * through to the API (a missing one is still a 401) and the API accepts or refuses it as API-Bank does. `toolsim
 * call` on the toolset file starts from its databases. Real HTTP on 127.0.0.1; the tiny API-Bank corpus of
 * test/fixtures/apibank plus RegisterUser and CheckToken as API-Bank describes them.
 */

const FIXTURES = fileURLToPath(new URL("../../fixtures/apibank", import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), "toolsim-apibank-tokens-"));
const toolsets = path.join(root, "toolsets");
let server: RunningServe;
let account = "";
let alarm = "";

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

async function post(base: string, api: string, body: Record<string, unknown>, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/${api}${token !== undefined ? `?token=${encodeURIComponent(token)}` : ""}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  const apis = JSON.parse(readFileSync(path.join(FIXTURES, "api_descriptions.json"), "utf8")) as unknown[];
  const str = (description: string) => ({ type: "str", description });
  apis.push(
    { name: "RegisterUser", description: "The API for registering a account, given the username, password and email.", input_parameters: { username: str("The username of the user."), password: str("The password of the user."), email: str("The email of the user.") }, output_parameters: { token: str("The token of the user.") }, api_set: "apis", database_name: "Account", requires_token: false },
    { name: "CheckToken", description: "Check the user token.", input_parameters: { token: str("The token of the user.") }, output_parameters: { username: str("The username of the user.") }, api_set: "apis", database_name: "Account", requires_token: true },
  );
  mkdirSync(path.join(root, "init_database"), { recursive: true });
  for (const db of ["Account.json", "Alarm.json"]) copyFileSync(path.join(FIXTURES, "init_database", db), path.join(root, "init_database", db));
  writeFileSync(path.join(root, "api_descriptions.json"), JSON.stringify(apis));
  const imported = await cli(["toolset", "import", "apibank", path.join(root, "api_descriptions.json"), "--out", toolsets]);
  if (imported.code !== 0) throw new Error(imported.out + imported.err);
  const a = await loadToolset(path.join(toolsets, "apibank-account.yaml"));
  const b = await loadToolset(path.join(toolsets, "apibank-alarm.yaml"));
  if (!a.ok || !b.ok) throw new Error("the imported toolsets do not load");
  expect(a.value.auth).toMatchObject({ name: "token", credentials: ["tok-foo"], checkedBy: "api" });
  server = await startServe({ apis: [servedApiOf(a.value), servedApiOf(b.value)], port: 0, log: () => undefined });
  account = server.apis.find((x) => x.name === "apibank-account")?.url as string;
  alarm = server.apis.find((x) => x.name === "apibank-alarm")?.url as string;
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("serve: tokens are API-Bank's to check", () => {
  it("a token RegisterUser issued at run time is accepted; a wrong one gets API-Bank's own error; none is a 401", async () => {
    const registered = await post(account, "RegisterUser", { username: "newbie", password: "pw-1", email: "newbie@example.com" });
    expect(registered.status).toBe(200);
    const token = registered.body.token as string;
    expect(token).toMatch(/^[a-z0-9]{18}$/);
    expect(await post(account, "CheckToken", {}, token)).toEqual({ status: 200, body: { username: "newbie" } });
    // The starting token still works; an unknown one reaches the API, which refuses it as API-Bank does.
    expect(await post(account, "CheckToken", {}, "tok-foo")).toEqual({ status: 200, body: { username: "foo" } });
    expect(await post(account, "CheckToken", {}, "not-a-token")).toEqual({ status: 400, body: { exception: "The token is invalid." } });
    expect((await post(account, "CheckToken", {})).status).toBe(401);
  });

  it("GetUserToken with the right password gets the user's token, which the API takes; a wrong password gets none", async () => {
    const got = await post(alarm, "GetUserToken", { username: "foo", password: "bar" });
    expect(got).toEqual({ status: 200, body: { token: "tok-foo" } });
    expect(await post(alarm, "AddAlarm", { time: "2023-03-20 06:30:00" }, "tok-foo")).toEqual({ status: 200, body: "success" });
    expect(await post(alarm, "GetUserToken", { username: "foo", password: "nope" })).toEqual({ status: 400, body: { exception: "The password is incorrect." } });
  });

  it("toolset validate has no auth warning for an API-Bank toolset", async () => {
    const r = await cli(["toolset", "validate", path.join(toolsets, "apibank-account.yaml"), path.join(toolsets, "apibank-alarm.yaml")]);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/auth-missing|auth-unused/);
  });
});

describe("call: an API-Bank toolset file starts from its databases", () => {
  it("a correct password gets the user's token, a wrong one API-Bank's exception", async () => {
    const file = path.join(toolsets, "apibank-account.yaml");
    const right = await cli(["call", file, "GetUserToken", "--args", JSON.stringify({ username: "foo", password: "bar" }), "--json"]);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.out)).toMatchObject({ status: 200, body: { token: "tok-foo" }, source: "state" });
    const wrong = await cli(["call", file, "GetUserToken", "--args", JSON.stringify({ username: "foo", password: "nope" }), "--json"]);
    expect(JSON.parse(wrong.out)).toMatchObject({ status: 400, body: { exception: "The password is incorrect." } });
    const unknown = await cli(["call", file, "GetUserToken", "--args", JSON.stringify({ username: "nobody", password: "x" }), "--json"]);
    expect(JSON.parse(unknown.out)).toMatchObject({ status: 400, body: { exception: "The username does not exist." } });
  });
});
