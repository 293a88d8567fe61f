import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stableStringify } from "../../specs/stable-stringify.js";
import { redactRecord } from "../../specs/redact-secrets.js";

/** The files of a run folder. */
export const RUN_FILES = {
  run: "run.json",
  events: "events.jsonl",
  corpus: "corpus.jsonl",
  rejected: "rejected.jsonl",
  summary: "summary.json",
} as const;

/** The versions a run was made with. */
export interface RunVersions {
  toolsim: string;
  node: string;
  /** Key dependencies and their installed versions. */
  dependencies: Record<string, string>;
}

/** `run.json`: what a run was made from, given by the caller and written once. */
export interface RunInfo {
  id: string;
  createdAt: string;
  seed: number;
  /** The run's settings (secrets are redacted before writing). */
  config: Record<string, unknown>;
  versions: RunVersions;
  /** Toolset (or spec file) -> content hash (see {@link contentHash}). */
  specHashes: Record<string, string>;
  /** Number of operations of each toolset, for the coverage figures of the summary. */
  operations?: Record<string, number>;
  /** The files the toolsets were loaded from, in the run's toolset order (so `--resume` can reload them). */
  toolsetFiles?: string[];
}

/** Settings recorded in `run.json` that do not change a run's content: a run may be resumed with other values. */
export const NON_CONTENT_SETTINGS: readonly string[] = ["concurrency"];

/** The content settings whose values differ between two configs, as `key a vs b` (empty: compatible). */
export function configDifferences(recorded: Record<string, unknown>, requested: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(requested)])].filter((k) => !NON_CONTENT_SETTINGS.includes(k)).sort();
  const show = (v: unknown): string => {
    const text = v === undefined ? "(none)" : stableStringify(v);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  return keys.filter((k) => stableStringify(recorded[k] ?? null) !== stableStringify(requested[k] ?? null)).map((k) => `${k} ${show(recorded[k])} vs ${show(requested[k])}`);
}

const KEY_DEPENDENCIES = [
  "@langchain/core",
  "@langchain/openai",
  "langchain",
  "ajv",
  "@apidevtools/swagger-parser",
  "json-schema-faker",
  "@faker-js/faker",
  "yaml",
  "minisearch",
];

function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = join(dir, "package.json");
    if (existsSync(p)) {
      try {
        if ((JSON.parse(readFileSync(p, "utf8")) as { name?: string }).name === "toolsim") return dir;
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The versions of toolsim, Node and the key dependencies installed beside it, for `run.json`. */
export function currentVersions(dependencies: readonly string[] = KEY_DEPENDENCIES): RunVersions {
  const root = packageRoot();
  const versionOf = (p: string): string | undefined => {
    try {
      return (JSON.parse(readFileSync(p, "utf8")) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  const deps: Record<string, string> = {};
  for (const d of dependencies) {
    const v = root ? versionOf(join(root, "node_modules", d, "package.json")) : undefined;
    if (v !== undefined) deps[d] = v;
  }
  return { toolsim: (root && versionOf(join(root, "package.json"))) || "0.0.0", node: process.versions.node, dependencies: deps };
}

/** A content hash (`sha256:<hex>`) of a spec or toolset text, for `run.json`. */
export function contentHash(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** A copy of a value with the values of secret names (`apiKey`, `webhookToken`, `client_secret`...) replaced by `[redacted]`. */
export function redactSecrets(value: unknown): unknown {
  return redactRecord(value).value;
}
