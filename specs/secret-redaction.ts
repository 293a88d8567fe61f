/*
 * Secrets out of what is written: the names that carry credentials (headers, query parameters, JSON keys)
 * and the scrubbing of known secret values, bearer tokens, `sk-...` keys and auth headers from text. Used by
 * the LLM cassette, the serve cassette and the real-API and replay responders, so that a recording is
 * written and matched with one set of rules.
 */

import { isSecretName as holdsSecret, REDACTED } from "./redact-secrets.js";
import { isObject } from "./json-object.js";

export { REDACTED };

type Json = Record<string, unknown>;

/** JSON keys whose values are secrets: every spelling of a secret name (`redact-secrets.ts`), and these compact forms. */
export function isSecretKey(key: string): boolean {
  if (holdsSecret(key)) return true;
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (k === "") return false;
  return (
    k.endsWith("apikey") ||
    k.endsWith("secret") ||
    k.includes("password") ||
    k.includes("passwd") ||
    k === "authorization" ||
    k === "proxyauthorization" ||
    k.endsWith("credential") ||
    k.endsWith("credentials") ||
    k === "bearer" ||
    k === "cookie" ||
    k === "setcookie" ||
    k === "token" ||
    /(access|refresh|auth|id|session|bearer|api|secret|security|client)token$/.test(k)
  );
}

const SECRET_NAME = /^(key|token|auth|sig|signature|secret|password|passwd|appid|app_id|session|cookie|credentials?)$|(api[-_]?key|apikey|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|private[-_]?key|secret[-_]?key|password|session[-_]?id)$/i;
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-auth-token", "x-access-token"]);

/**
 * Whether a header, query or cookie name carries a credential: a secret name in any spelling (`redact-secrets.ts`),
 * a short one that query strings use for keys (`key`, `sig`, `appid`), or one a security scheme declares (`extra`, lower case).
 */
export function isSecretName(name: string, extra: ReadonlySet<string> = new Set()): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || extra.has(lower) || SECRET_NAME.test(lower) || holdsSecret(name);
}

const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
const KEY_LIKE = /\b(sk|pk|rk)-[A-Za-z0-9_*.-]{12,}/g;
const AUTH_HEADER = /\b(authorization|x-api-key|api-key)\s*[:=]\s*[^\s,;"']+/gi;

/** A text with the given secret values, bearer tokens, `sk-...` keys (masked ones too) and auth headers replaced. */
export function redactText(s: string, secrets: readonly string[] = []): string {
  let out = s;
  for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(BEARER, `$1 ${REDACTED}`).replace(KEY_LIKE, REDACTED).replace(AUTH_HEADER, `$1: ${REDACTED}`);
}

/**
 * A copy of a value with secrets removed: values under secret-looking keys (`apiKey`, `authorization`,
 * `access_token`, `password`...) become `[redacted]`, and in every string the given secret values (the API
 * key itself), bearer tokens, `sk-...` keys and `Authorization:` headers are replaced. Token counts
 * (`max_tokens`, `prompt_tokens`) are not secrets and stay.
 */
export function redactSecretsDeep(value: unknown, secrets: readonly string[] = []): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactSecretsDeep(v, secrets));
  if (isObject(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      const key = redactText(k, secrets);
      // Only plain values under secret keys: an object there is a schema or a container, scrubbed inside.
      out[key] = isSecretKey(k) && v !== null && v !== undefined && typeof v !== "object" ? REDACTED : redactSecretsDeep(v, secrets);
    }
    return out;
  }
  return value;
}

/**
 * A strict check for written files: whether a text holds one of the secret values, a bearer token, or the
 * word `authorization` at all (so it can flag harmless text; use it on files that should hold no headers).
 */
export function containsSecret(text: string, secrets: readonly string[] = []): boolean {
  if (secrets.some((s) => s.length >= 4 && text.includes(s))) return true;
  return /authorization/i.test(text) || new RegExp(BEARER.source).test(text);
}
