import { createRng, deriveSeed } from "../seed.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The last run of digits of an id, with what comes before and after it (`rem-2004` -> `rem-`, `2004`, ``). */
const NUMBERED = /^(.*?)(\d+)(\D*)$/;
const MAX_TRIES = 64;

/** What choosing a new string id needs to know about the collection and the id field. */
export interface FreshIdOptions {
  /** The id the answer came with (an example's or a synthesized one): the model for the new one. */
  candidate: string;
  /** Every id the collection has or had (deleted ones included: ids are not reused). */
  known: Pick<ReadonlySet<string>, "has"> | readonly string[];
  /** The largest number of the collection's ids of a shape (prefix, suffix), when known without a scan. */
  maxOfShape?: (prefix: string, suffix: string) => bigint | undefined;
  /** Whether an id is allowed where the id travels and is stored (the id field's schema, the item path parameter's schema). */
  fits: (id: string) => boolean;
  /** The id field's `format`, when it has one (`uuid`). */
  format?: string;
  /** Seed of the call: new uuids and synthesized ids come from it. */
  seed: number;
  /** Another value for the id field (synthesized from its schema with the given seed), tried last. */
  synthesize?: (seed: number) => unknown;
}

/**
 * A new id for a created resource that looks like the others and fits the id field's schema (its pattern
 * or format): the next number after the largest id of the same shape (`rem-2003` -> `rem-2004`, zero
 * padding kept), a new seeded uuid for uuid ids, else a value synthesized for the id field. Undefined when
 * nothing unique fits.
 */
export function freshStringId(options: FreshIdOptions): string | undefined {
  const known: Pick<ReadonlySet<string>, "has"> = Array.isArray(options.known) ? new Set(options.known as readonly string[]) : (options.known as Pick<ReadonlySet<string>, "has">);
  const ok = (id: string): boolean => !known.has(id) && options.fits(id);
  const { candidate } = options;
  if (options.format === "uuid" || UUID.test(candidate)) {
    if (ok(candidate)) return candidate;
    for (let i = 0; i < MAX_TRIES; i++) {
      const id = seededUuid(deriveSeed(options.seed, "fresh-id", i));
      if (ok(id)) return id;
    }
  }
  const numbered = NUMBERED.exec(candidate);
  if (numbered) {
    const [, prefix = "", digits = "", suffix = ""] = numbered;
    // The largest number among ids of the same shape: a new resource comes after the ones that exist.
    let max: bigint | undefined = options.maxOfShape?.(prefix, suffix);
    if (!options.maxOfShape) for (const id of Array.isArray(options.known) ? (options.known as readonly string[]) : known instanceof Set ? (known as ReadonlySet<string>) : []) {
      const m = NUMBERED.exec(id);
      if (m && m[1] === prefix && m[3] === suffix) {
        const n = BigInt(m[2] ?? "0");
        if (max === undefined || n > max) max = n;
      }
    }
    if (max === undefined && ok(candidate)) return candidate;
    let n = max !== undefined ? max + 1n : BigInt(digits) + 1n;
    for (let i = 0; i < MAX_TRIES; i++, n++) {
      const id = `${prefix}${n.toString().padStart(digits.length, "0")}${suffix}`;
      if (ok(id)) return id;
    }
  } else if (ok(candidate)) {
    return candidate;
  }
  for (let i = 2; i < MAX_TRIES; i++) {
    const id = `${candidate}-${i}`;
    if (ok(id)) return id;
  }
  if (options.synthesize) {
    for (let i = 0; i < MAX_TRIES; i++) {
      const value = options.synthesize(deriveSeed(options.seed, "fresh-id-synthesized", i));
      if (typeof value === "string" && ok(value)) return value;
    }
  }
  return undefined;
}

/** Words of a name as a slug joins them (`Reading corner` -> `reading`, `corner`). */
function slugWords(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * The id a record named `newName` gets where ids are slugs of names: the model id's slug of its own record's name
 * replaced by the new name's, its prefix and separator kept (`scn-leaving-home` of "Leaving home" -> for
 * "Reading corner", `scn-reading-corner`); undefined when the model id is no slug of its record's name.
 */
export function renamedSlug(candidate: string, oldName: unknown, newName: unknown): string | undefined {
  if (typeof oldName !== "string" || typeof newName !== "string") return undefined;
  const before = slugWords(oldName);
  const after = slugWords(newName);
  if (before.length === 0 || after.length === 0 || after.length > 8) return undefined;
  for (const sep of ["-", "_"]) {
    const tail = before.join(sep);
    if (candidate === tail || candidate.endsWith(`${sep}${tail}`)) return `${candidate.slice(0, candidate.length - tail.length)}${after.join(sep)}`;
  }
  return undefined;
}

/** A version 4 uuid from a seed. */
export function seededUuid(seed: number): string {
  const rng = createRng(seed);
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = "4";
  hex[16] = (8 + rng.int(0, 3)).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
