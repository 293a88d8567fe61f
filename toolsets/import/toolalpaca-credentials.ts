import { slugify } from "../slug.js";
import type { ToolsetAuth } from "../toolset.js";
import { parseActionInput } from "./toolalpaca-golden.js";
import { isObject } from "../../specs/json-object.js";

/*
 * ToolAlpaca's `Authentication` field (`{"access_key": "***"}`) names the parameter that carries an API's key; its
 * real-API eval set passes the key as an ordinary operation parameter, and writes the authors' own key into the
 * golden answers (`{"access_key": "<their key>", "query": "Paris"}`). On import the key becomes toolset
 * credentials (`auth`) with a placeholder value, and every occurrence of a source key is replaced by that
 * placeholder before anything is built or written.
 */

type Json = Record<string, unknown>;

/** What an `Authentication` value looks like when the source masked its key (`***`, `<your key>`, `YOUR_API_KEY`). */
function isMasked(v: string): boolean {
  const t = v.trim();
  return t === "" || /^[*xX•.\-_]+$/.test(t) || /^<[^>]*>$/.test(t) || /^\$\{[^}]*\}$/.test(t) || /^(your|my|insert|enter|put)[\s_-]/i.test(t) || /^(api[-_ ]?key|key|token|secret|access[-_ ]?key)$/i.test(t);
}

/** The credentials of one ToolAlpaca API, and what was done to the source's keys. */
export interface ToolAlpacaCredentials {
  /**
   * The toolset's `auth`: the parameter that carries the key and the placeholder credential it accepts; further
   * key parameters of `Authentication` (an app id and an app key) as `keys`, each with its placeholder.
   */
  auth: ToolsetAuth;
  /** The placeholder written wherever the source had the first parameter's key. */
  placeholder: string;
  /** The source's keys, of every parameter (never written: only to scrub them). */
  secrets: string[];
  /** Per parameter of `Authentication`: its placeholder and the source's keys it replaces, longest first. */
  parameters: Array<{ name: string; placeholder: string; secrets: string[] }>;
}

/** The placeholder credential of an API's key parameter: `demo-apilayer-weatherstack-access-key`. */
export function placeholderCredential(apiName: string, parameter: string): string {
  return `demo-${slugify(apiName)}-${slugify(parameter)}`;
}

/** The values the golden answers pass for a parameter (also from inputs that are not quite JSON). */
function goldenValues(entry: Json, parameter: string): string[] {
  const out = new Set<string>();
  const golden = Array.isArray(entry["Golden_Answers"]) ? entry["Golden_Answers"] : [];
  const quoted = new RegExp(`"${parameter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:\\s*"([^"]*)"`, "g");
  for (const steps of golden) {
    for (const step of Array.isArray(steps) ? steps : []) {
      if (!isObject(step)) continue;
      const input = step["Action_Input"];
      const text = typeof input === "string" ? input : JSON.stringify(input ?? {});
      const args = parseActionInput(text);
      const v = args?.[parameter];
      if (typeof v === "string" || typeof v === "number") out.add(String(v));
      for (const m of text.matchAll(quoted)) out.add(m[1] as string);
    }
  }
  return [...out].filter((v) => !isMasked(v));
}

/**
 * Reads `Authentication` (`{name: value}`): undefined when it names no parameter. The first name becomes the
 * toolset's `auth` (an API key in that parameter, `in` where the spec declares it, else the query) with one
 * placeholder credential; the source's keys are its unmasked `Authentication` values and the values the golden
 * answers pass for those parameters.
 */
export function toolAlpacaCredentials(entry: Json, apiName: string, where: (parameter: string) => "header" | "query" | undefined): ToolAlpacaCredentials | undefined {
  const authentication = entry["Authentication"];
  if (!isObject(authentication)) return undefined;
  const names = Object.keys(authentication).filter((k) => k.trim() !== "");
  const first = names[0];
  if (first === undefined) return undefined;
  const placeholders = new Set(names.map((name) => placeholderCredential(apiName, name)));
  const taken = new Set<string>();
  const parameters = names.map((name) => {
    const secrets = new Set<string>();
    const v = authentication[name];
    if ((typeof v === "string" || typeof v === "number") && !isMasked(String(v))) secrets.add(String(v));
    for (const g of goldenValues(entry, name)) secrets.add(g);
    // A key is one parameter's (the first that holds it); a placeholder is never a key.
    const own = [...secrets].filter((s) => !placeholders.has(s) && !taken.has(s)).sort((a, b) => b.length - a.length);
    for (const s of own) taken.add(s);
    return { name, placeholder: placeholderCredential(apiName, name), secrets: own };
  });
  const placeholder = placeholderCredential(apiName, first);
  const keys = Object.fromEntries(parameters.slice(1).map((p) => [p.name, p.placeholder]));
  return {
    auth: { type: "apiKey", in: where(first) ?? "query", name: first, credentials: [placeholder], ...(Object.keys(keys).length > 0 ? { keys } : {}) },
    placeholder,
    secrets: [...taken].sort((a, b) => b.length - a.length),
    parameters,
  };
}

/** A deep copy of a value with each parameter's source keys replaced by that parameter's placeholder. */
export function scrubCredentials<T>(value: T, credentials: ToolAlpacaCredentials): { value: T; replaced: number } {
  // Longest keys first across parameters, so a key that contains another is replaced whole.
  const pairs = credentials.parameters.flatMap((p) => p.secrets.map((s) => [s, p.placeholder] as const)).sort((a, b) => b[0].length - a[0].length);
  let out = structuredClone(value);
  let replaced = 0;
  for (const [secret, placeholder] of pairs) {
    const r = scrubSecrets(out, [secret], placeholder);
    out = r.value;
    replaced += r.replaced;
  }
  return { value: out, replaced };
}

/** A deep copy of a value with every occurrence of the secrets replaced by the placeholder (in strings and keys). */
export function scrubSecrets<T>(value: T, secrets: readonly string[], placeholder: string): { value: T; replaced: number } {
  let replaced = 0;
  const scrub = (s: string): string => {
    let out = s;
    for (const secret of secrets) {
      if (secret.length < 4 ? out !== secret : !out.includes(secret)) continue;
      const parts = out.split(secret);
      replaced += parts.length - 1;
      out = parts.join(placeholder);
    }
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), walk(x)]));
    return v;
  };
  if (secrets.length === 0) return { value: structuredClone(value), replaced: 0 };
  return { value: walk(value) as T, replaced };
}
