import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type SwaggerParser from "@apidevtools/swagger-parser";

/** Why a `$ref` target was refused or could not be read. */
export interface RefusedRef {
  code: "ref-outside-root" | "ref-http-disabled" | "ref-unresolved";
  message: string;
}

/**
 * The `$ref` policy of one load, as swagger-parser resolve options: file `$ref`s are read only inside
 * `root` (also through symlinks), and http(s) `$ref`s are refused unless allowed. Every refusal is
 * recorded in `refused` by target URL, because swagger-parser only passes on a generic message.
 */
export interface RefGuard {
  resolve: NonNullable<SwaggerParser.Options["resolve"]>;
  refused: Map<string, RefusedRef>;
}

/** Creates the `$ref` policy for one load. */
export async function createRefGuard(root: string, allowHttpRefs: boolean): Promise<RefGuard> {
  const lexicalRoot = path.resolve(root);
  const realRoot = await fs.realpath(lexicalRoot).catch(() => lexicalRoot);
  const refused = new Map<string, RefusedRef>();
  const refuse = (url: string, why: RefusedRef): never => {
    refused.set(url, why);
    throw new Error(why.message);
  };

  const confinedFile = {
    order: 1,
    canRead: (file: SwaggerParser.FileInfo): boolean => isFileUrl(file.url),
    read: async (file: SwaggerParser.FileInfo): Promise<Buffer> => {
      const target = toFileSystemPath(file.url);
      if (target === undefined) return refuse(file.url, { code: "ref-unresolved", message: `malformed file reference ${file.url}` });
      if (!isInside(lexicalRoot, target) && !isInside(realRoot, target)) {
        return refuse(file.url, { code: "ref-outside-root", message: `file $ref ${target} is outside the allowed root ${lexicalRoot}` });
      }
      let real: string;
      try {
        real = await fs.realpath(target);
      } catch {
        return refuse(file.url, { code: "ref-unresolved", message: `file $ref target not found: ${target}` });
      }
      if (!isInside(realRoot, real)) {
        return refuse(file.url, { code: "ref-outside-root", message: `file $ref ${target} leads (through a link) to ${real}, outside the allowed root ${lexicalRoot}` });
      }
      try {
        return await fs.readFile(real);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        return refuse(file.url, { code: "ref-unresolved", message: `file $ref ${target} cannot be read: ${reason}` });
      }
    },
  };

  const httpBlocked = {
    order: 2,
    canRead: (file: SwaggerParser.FileInfo): boolean => /^https?:/i.test(file.url),
    read: (file: SwaggerParser.FileInfo): never =>
      refuse(file.url, { code: "ref-http-disabled", message: `$ref over http(s) is disabled: ${file.url} (enable it with allowHttpRefs)` }),
  };

  const resolve: RefGuard["resolve"] = allowHttpRefs
    ? { file: false, confinedFile, http: { timeout: 20_000, redirects: 3 } }
    : { file: false, confinedFile, http: false, httpBlocked };
  return { resolve, refused };
}

/** True if `target` is `dir` itself or below it. */
function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function isFileUrl(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "file" || /^[a-z]$/i.test(scheme);
}

function toFileSystemPath(url: string): string | undefined {
  try {
    const p = url.toLowerCase().startsWith("file:") ? fileURLToPath(url) : decodeURIComponent(url);
    return path.resolve(p.replace(/[\\/]+$/, ""));
  } catch {
    return undefined;
  }
}
