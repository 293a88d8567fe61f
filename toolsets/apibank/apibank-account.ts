import { createRng } from "../../specs/seed.js";
import { sameAll, type ApiBankApiImpl, sameOutcome } from "./apibank-api.js";
import { asStr, PyException, pyEquals } from "./py.js";

/*
 * API-Bank's account and bank APIs as its Python implementation behaves (`apis/get_user_token.py`,
 * `register_user.py`, `forgot_password.py`, `modify_password.py`, `delete_account.py`, `check_token.py`,
 * `query_balance.py`, `open_bank_account.py`): a wrong password gets no token, tokens are checked against the
 * Account database, ForgotPassword's code (970420) is kept by its instance between its two calls.
 */

type Json = Record<string, unknown>;

/** The verification code ForgotPassword sends (fixed in API-Bank's implementation). */
export const APIBANK_VERIFICATION_CODE = 970420;

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** RegisterUser's token: 18 random letters and digits, lower-cased (drawn from the call's seed). */
function newToken(seed: number): string {
  const rng = createRng(seed);
  let out = "";
  for (let i = 0; i < 18; i++) out += LETTERS[Math.floor(rng.next() * LETTERS.length)];
  return out.toLowerCase();
}

function account(env: { table(n: string): { get(k: string): unknown } }, username: string): Json {
  return env.table("Account").get(username) as Json;
}

/** The account and bank APIs of the level-1/2 set. */
export const ACCOUNT_APIS: ApiBankApiImpl[] = [
  {
    name: "GetUserToken",
    set: "apis",
    params: [
      { name: "username", type: "str" },
      { name: "password", type: "str" },
    ],
    call(a, env) {
      const username = String(a["username"]);
      const table = env.table("Account");
      if (typeof a["username"] !== "string" || !table.has(username)) throw new PyException("The username does not exist.");
      const acc = table.get(username) as Json;
      if (!pyEquals(acc["password"], a["password"])) throw new PyException("The password is incorrect.");
      return { token: acc["token"] };
    },
    check: sameAll,
  },
  {
    name: "CheckToken",
    set: "apis",
    withApiName: false,
    params: [{ name: "token", type: "str" }],
    call: (a, env) => ({ username: env.checkToken(a["token"]) }),
    check: sameAll,
  },
  {
    name: "RegisterUser",
    set: "apis",
    withApiName: false,
    params: [
      { name: "username", type: "str" },
      { name: "password", type: "str" },
      { name: "email", type: "str" },
    ],
    call(a, env) {
      const table = env.table("Account");
      const username = String(a["username"]);
      if (table.has(username)) throw new PyException("The username already exists.");
      const token = newToken(env.seed);
      table.set(username, { password: a["password"], token, email: a["email"] });
      return { token };
    },
    // The token is random: only the input and the exception count.
    check: (r, g) => !(g.output === null && r.output !== null) && pyEquals(r.input, g.input) && r.exception === g.exception,
  },
  {
    name: "DeleteAccount",
    set: "apis",
    withApiName: false,
    params: [{ name: "token", type: "str" }],
    call(a, env) {
      const username = env.checkToken(a["token"]);
      const table = env.table("Account");
      if (!table.has(username)) throw new PyException("No such user.");
      table.delete(username);
      return { status: "success" };
    },
    check: sameAll,
  },
  {
    name: "ModifyPassword",
    set: "apis",
    withApiName: false,
    params: [
      { name: "token", type: "str" },
      { name: "old_password", type: "str" },
      { name: "new_password", type: "str" },
    ],
    call(a, env) {
      const username = env.checkToken(a["token"]);
      const acc = account(env, username);
      if (!pyEquals(acc["password"], a["old_password"])) throw new PyException("The old password is incorrect.");
      env.table("Account").set(username, { ...acc, password: a["new_password"] });
      return { status: "success" };
    },
    check: (r, g) => pyEquals(r.input, g.input) && r.exception === g.exception && pyEquals(r.output, g.output),
  },
  {
    name: "ForgotPassword",
    set: "apis",
    withApiName: false,
    kwargs: true,
    params: [
      { name: "status", type: "str" },
      { name: "username", type: "str" },
      { name: "email", type: "str" },
      { name: "verification_code", type: "int" },
      { name: "new_password", type: "str" },
    ],
    call(a, env) {
      const inst = env.instances.get("ForgotPassword");
      if (a["status"] === "Forgot Password") {
        if (!("username" in a) || !("email" in a)) throw new PyException("The username and email are required for the first call.");
        const table = env.table("Account");
        const username = String(a["username"]);
        if (typeof a["username"] !== "string" || !table.has(username)) throw new PyException("The username does not exist.");
        if (!pyEquals((table.get(username) as Json)["email"], a["email"])) throw new PyException("The email is incorrect.");
        env.instances.set("ForgotPassword", { ...inst, verification_code: APIBANK_VERIFICATION_CODE, username });
        return APIBANK_VERIFICATION_CODE;
      }
      if (a["status"] === "Verification Code") {
        if (!inst["verification_code"]) throw new PyException("You need to call the API with status 'Forgot Password' at first.");
        if (!("new_password" in a) || !("verification_code" in a)) throw new PyException("The new password and verification code are required for the second call.");
        if (!pyEquals(inst["verification_code"], a["verification_code"])) throw new PyException("The verification code is incorrect.");
        const username = String(inst["username"]);
        const acc = account(env, username);
        if (acc === undefined) throw new PyException(`'${username}'`, "KeyError");
        env.table("Account").set(username, { ...acc, password: a["new_password"] });
        return "success";
      }
      throw new PyException("The status is only 'Forgot Password' or 'Verification Code'.");
    },
    check: sameAll,
  },
  {
    name: "QueryBalance",
    set: "apis",
    params: [{ name: "token", type: "str" }],
    call(a, env) {
      let username: string;
      try {
        asStr(a["token"], "strip");
        username = env.checkToken(a["token"]);
      } catch {
        throw new PyException("The token is incorrect.");
      }
      const bank = env.table("Bank");
      if (!bank.has(username)) throw new PyException("The user does not have an account.");
      return (bank.get(username) as Json)["balance"];
    },
    check: (r, g) => {
      const rt = asStr(r.input?.["token"], "strip").trim();
      const gt = asStr(g.input?.["token"], "strip").trim();
      return rt === gt && sameOutcome(r, g);
    },
  },
  {
    name: "OpenBankAccount",
    set: "apis",
    params: [
      { name: "account", type: "str" },
      { name: "password", type: "str" },
      { name: "name", type: "str" },
    ],
    // No database of its own in API-Bank (`self.database = {}` per instance): kept in the instance.
    call(a, env) {
      const inst = env.instances.get("OpenBankAccount");
      const accounts = Array.isArray(inst["accounts"]) ? (inst["accounts"] as Json[]) : [];
      if (accounts.some((x) => pyEquals(x["account"], a["account"]))) return "failed";
      env.instances.set("OpenBankAccount", { ...inst, accounts: [...accounts, { account: a["account"], password: a["password"], name: a["name"] }] });
      return "success";
    },
    check: sameAll,
  },
];
