import type { ResponseContext } from "../responder.js";
import { isObject, pointerSegment, type Json } from "../../json-object.js";
import { snakeName } from "../../snake-name.js";
import { nounOfPath } from "./entity-memory.js";

/**
 * The session's user: the person an episode registered, logged in or read as `/me`. Answers about the caller
 * (`/me`, a profile, a login's or a token refresh's `user`) are that person, with the same id, e-mail and name,
 * unless the call names someone else (a login with another e-mail starts another session's user).
 */

/** Path nouns of the caller's own record. */
const SELF_NOUNS = /^(me|self|whoami|profile|myprofile|myaccount|currentuser|session)$/;
/** Words of operations that answer with the session's user (register, log in, refresh a token...). */
const SESSION_WORDS = new Set(["me", "profile", "login", "signin", "logon", "register", "signup", "refresh", "token", "authenticate", "auth", "session", "whoami", "self"]);
/** Keys under which an answer holds the user (`{accessToken, user: {...}}`). */
const USER_KEYS = /^(user|account|profile|me|member|customer|identity)$/i;
/** Fields that make an object a person's account. */
const PERSON_FIELDS = ["email", "username", "login", "displayName", "display_name", "userName", "user_name"];
/** Fields that say which person it is: another value is another person. */
const WHO = ["email", "username", "login", "userName", "user_name"];

const NOUN = "@session";
const KEY = "user";

function isPerson(o: Json): boolean {
  return PERSON_FIELDS.some((f) => typeof o[f] === "string");
}

/** Whether an operation answers with the session's user (`getProfile`, `login`, `POST /auth/refresh`, `registerUser`). */
export function isSessionOperation(ctx: ResponseContext): boolean {
  const op = ctx.call.tool.operation;
  if (SELF_NOUNS.test(nounOfPath(op.path).replace(/[^a-z]/g, ""))) return true;
  const words = new Set(snakeName(op.operationId ?? ctx.call.tool.name).split("_"));
  for (const segment of op.path.split("/")) if (!segment.startsWith("{")) for (const w of snakeName(segment).split("_")) words.add(w);
  for (const w of words) if (SESSION_WORDS.has(w)) return true;
  return false;
}

/** The person record of an answer about the session (the answer itself, or its `user`), and its pointer. */
export function sessionRecord(body: unknown): { record: Json; pointer: string } | undefined {
  if (!isObject(body)) return undefined;
  if (isPerson(body)) return { record: body, pointer: "" };
  for (const [k, v] of Object.entries(body)) if (USER_KEYS.test(k) && isObject(v) && isPerson(v)) return { record: v, pointer: `/${pointerSegment(k)}` };
  return undefined;
}

/** What the episode knows of its session's user. */
export function knownSessionUser(ctx: ResponseContext): Json | undefined {
  return ctx.state.observed(NOUN, KEY);
}

/**
 * The fields of the session's user an answer about the caller takes (its scalar fields: the id, the e-mail,
 * the name...), or undefined when the answer is about someone else (another e-mail or username) or the
 * episode has no session user yet.
 */
export function sessionFields(ctx: ResponseContext, record: Json): Json | undefined {
  const known = knownSessionUser(ctx);
  if (known === undefined) return undefined;
  const args = isObject(ctx.call.args) ? ctx.call.args : {};
  // A call naming a person (a login's e-mail) that is not the session's: another person.
  for (const f of WHO) {
    const asked = args[f];
    if (typeof asked === "string" && typeof known[f] === "string" && asked.toLowerCase() !== (known[f] as string).toLowerCase()) return undefined;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(known)) if (k in record && (v === null || typeof v !== "object")) out[k] = v;
  return out;
}

/** Remembers the session's user from a successful answer about it. */
export function observeSessionUser(ctx: ResponseContext, body: unknown): void {
  if (!isSessionOperation(ctx)) return;
  const found = sessionRecord(body);
  if (!found) return;
  const scalars: Json = {};
  for (const [k, v] of Object.entries(found.record)) if (v === null || typeof v !== "object") scalars[k] = v;
  ctx.state.observe(NOUN, KEY, scalars);
}
