import type { Catalog } from "../catalog/catalog.js";
import { derefNode, pickMediaType } from "../catalog/catalog.js";
import { getAt, toPointer } from "../json-pointer.js";
import type { Tool } from "../catalog/tool.js";
import { isObject, type Json } from "../json-object.js";

/** The response an operation answers with: status, media type and where its schema and examples are. */
export interface SelectedResponse {
  /** The HTTP status to send (a `2XX` or `default` key becomes a concrete code). */
  status: number;
  /** The key in the operation's `responses` (`200`, `2XX`, `default`), or undefined when none is declared. */
  key?: string;
  mediaType?: string;
  /** Pointer to the response object (after `$ref`s). */
  pointer?: string;
  /** Pointer to the body schema, when there is one. */
  schemaPointer?: string;
  /** Pointer to the media type object. */
  mediaPointer?: string;
}

function concreteStatus(key: string, requested: number | undefined): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) {
    // A requested status inside the range is kept (`418` under `4XX`), else the range's first code.
    return requested !== undefined && Math.floor(requested / 100) === Number(key[0]) ? requested : Number(key[0]) * 100;
  }
  return requested ?? 200;
}

/** Whether a response key stands for success: a 2xx code, the `2XX` range, or `default`. */
export function isSuccessKey(key: string): boolean {
  return /^2(\d\d|XX)$/i.test(key) || key === "default";
}

/**
 * Picks an operation's response: the given status (exact, then `4XX`-style range, then `default`),
 * else the lowest declared 2xx, then `2XX`, then `default` (as 200), then the lowest declared 1xx or 3xx
 * (an operation documented as a redirect), else a bare 200/204 of the executor's own (no key: the spec
 * declares only errors, and a valid call is not answered with an error).
 */
export function selectResponse(catalog: Catalog, tool: Tool, status?: number): SelectedResponse {
  const doc = catalog.spec.document as unknown;
  const responsesPointer = `${tool.operation.pointer}/responses`;
  const responses = getAt(doc, responsesPointer);
  const keys = isObject(responses) ? Object.keys(responses) : [];
  let key: string | undefined;
  if (status !== undefined) {
    // A final answer's status is 200-599 (a 1xx is no answer, 999 no status): only a code the spec writes as such
    // stands for one outside that range, never a range or `default`.
    const answerable = Number.isInteger(status) && status >= 200 && status <= 599;
    key = keys.find((k) => k === String(status)) ?? (answerable ? (keys.find((k) => k.toUpperCase() === `${String(status)[0]}XX`) ?? keys.find((k) => k === "default")) : undefined);
    if (key === undefined && !answerable) return { status };
  } else {
    const lowest = (pattern: RegExp): string | undefined => keys.filter((k) => pattern.test(k)).sort()[0];
    key = lowest(/^2\d\d$/) ?? keys.find((k) => /^2XX$/i.test(k)) ?? keys.find((k) => k === "default") ?? lowest(/^[13]\d\d$/) ?? keys.find((k) => /^[13]XX$/i.test(k));
  }
  if (key === undefined) return { status: status ?? (tool.operation.method === "delete" ? 204 : 200) };
  const { node, pointer } = derefNode(doc, (responses as Json)[key], `${responsesPointer}${toPointer([key])}`);
  const resolvedStatus = concreteStatus(key, status);
  const out: SelectedResponse = { status: resolvedStatus, key, pointer };
  if (isObject(node) && isObject(node["content"])) {
    const mediaType = pickMediaType(node["content"]);
    if (mediaType !== undefined) {
      out.mediaType = mediaType;
      out.mediaPointer = `${pointer}/content${toPointer([mediaType])}`;
      const media = node["content"][mediaType];
      if (isObject(media) && (isObject(media["schema"]) || typeof media["schema"] === "boolean")) out.schemaPointer = `${out.mediaPointer}/schema`;
    }
  }
  return out;
}

/** Whether a media type carries JSON. */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && /json/i.test(mediaType);
}
