import type { Json } from "../../json-object.js";
import { deriveSeed } from "../../seed.js";
import { first, pick, set, type Ctx } from "./coherence-context.js";

/**
 * A DNS record's value is what its type holds: an `A` record an IPv4 address, `AAAA` an IPv6 one, `CNAME`, `NS`
 * and `ALIAS` a host name, `MX` a mail host, `TXT` a text such as an SPF policy; its name is a label of its zone
 * (`www`, `api`, `@`), not a person's name. A value that already is one of its type stays. Addresses come from the
 * ranges set aside for documentation (192.0.2.0/24, 2001:db8::/32).
 */

const TYPE_KEYS = ["recordtype", "rrtype", "dnstype", "type"];
const VALUE_KEYS = ["value", "content", "data", "rdata", "target", "answer"];
const NAME_KEYS = ["name", "host", "hostname", "subdomain"];
const DOMAIN_KEYS = ["domain", "zone", "zonename", "domainname"];
const TYPES = new Set(["A", "AAAA", "CNAME", "ALIAS", "ANAME", "NS", "MX", "TXT", "PTR", "CAA", "SRV"]);
const LABELS = ["www", "api", "app", "mail", "blog", "docs", "shop", "status", "@"];

/** Keys that say a typed value is a DNS record's (a bare `type` and `value` could be anything's). */
const DNS_CONTEXT = ["recordtype", "rrtype", "dnstype", "ttl", "zone", "zoneid", "zonename", "proxied", "domain", "domainname"];

/** Whether an object's keys (normalized) are a DNS record's: a type, a value, and a key only DNS records have. */
export function looksLikeDnsRecord(keys: ReadonlyMap<string, string>): boolean {
  return TYPE_KEYS.some((k) => keys.has(k)) && VALUE_KEYS.some((k) => keys.has(k)) && DNS_CONTEXT.some((k) => keys.has(k));
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+$/i;
const HOST = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}\.?$/i;

/** Whether a value is already one a record of this type holds. */
function fits(type: string, value: string): boolean {
  switch (type) {
    case "A":
      return IPV4.test(value);
    case "AAAA":
      return IPV6.test(value) && value.includes(":");
    case "CNAME":
    case "ALIAS":
    case "ANAME":
    case "NS":
    case "PTR":
      return HOST.test(value);
    case "MX":
      return HOST.test(value.replace(/^\d+\s+/, ""));
    case "TXT":
      return /^(v=|google-site-verification=|[a-z0-9-]+-verification=)/i.test(value);
    default:
      return true;
  }
}

/** A value of a type, for a zone, from a seed. */
function valueOf(type: string, zone: string, seed: number): string {
  const n = deriveSeed(seed, "dns", type);
  switch (type) {
    case "A":
      return `192.0.2.${(n % 254) + 1}`;
    case "AAAA":
      return `2001:db8::${((n % 0xfffe) + 1).toString(16)}`;
    case "MX":
      return `mail.${zone}`;
    case "TXT":
      return `v=spf1 include:_spf.${zone} ~all`;
    case "NS":
      return `ns${(n % 4) + 1}.${zone}`;
    case "CAA":
      return `0 issue "letsencrypt.org"`;
    case "SRV":
      return `10 5 5060 sip.${zone}`;
    default:
      return `edge.${zone}`;
  }
}

/** Makes a DNS record's value fit its type, and its name a label of its zone. */
export function cohereDnsRecord(ctx: Ctx, o: Json, keys: ReadonlyMap<string, string>, at: string, index: number): void {
  const typeKey = first(keys as Map<string, string>, TYPE_KEYS);
  const valueKey = first(keys as Map<string, string>, VALUE_KEYS);
  const rawType = typeKey !== undefined ? o[typeKey] : undefined;
  const type = typeof rawType === "string" ? rawType.toUpperCase() : undefined;
  if (type === undefined || !TYPES.has(type) || valueKey === undefined || typeof o[valueKey] !== "string") return;
  const domainKey = first(keys as Map<string, string>, DOMAIN_KEYS);
  const domain = domainKey !== undefined && typeof o[domainKey] === "string" && HOST.test(o[domainKey]) ? o[domainKey] : "example.com";
  if (!fits(type, o[valueKey])) set(ctx, o, valueKey, valueOf(type, domain, deriveSeed(ctx.seed, index)), at);
  const nameKey = first(keys as Map<string, string>, NAME_KEYS);
  const name = nameKey !== undefined ? o[nameKey] : undefined;
  // A label (`www`), the apex (`@`, ``) or a name in the zone (`api.example.com`) is a record's name; "Cornell Muller" is not.
  if (typeof name === "string" && !/^(@|\*|[a-z0-9_]([a-z0-9_.-]*[a-z0-9])?)?$/.test(name)) set(ctx, o, nameKey, pick(LABELS, ctx.seed, index), at);
}
