import { derefNode } from "../../specs/catalog/catalog.js";
import { getAt } from "../../specs/json-pointer.js";
import type { Responder } from "../../specs/respond/responder.js";
import { selectResponse } from "../../specs/call/select-response.js";
import { isObject } from "../../specs/json-object.js";

/**
 * A responder for Prism's `Prefer: example=<name>`: the named example of the selected response, or a 404
 * problem (as Prism answers) when the response has no example of that name.
 */
export function namedExampleResponder(name: string): Responder {
  return {
    name: "example",
    respond(ctx) {
      const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
      const doc = ctx.catalog.spec.document as unknown;
      const media = selected.mediaPointer !== undefined ? getAt(doc, selected.mediaPointer) : undefined;
      const examples = isObject(media) && isObject(media["examples"]) ? media["examples"] : undefined;
      const raw = examples?.[name];
      if (raw !== undefined && selected.mediaPointer !== undefined) {
        const { node } = derefNode(doc, raw, `${selected.mediaPointer}/examples/${name}`);
        if (isObject(node) && node["value"] !== undefined) {
          return { status: selected.status, body: structuredClone(node["value"]), ...(selected.mediaType ? { contentType: selected.mediaType } : {}), source: "example" };
        }
      }
      return {
        status: 404,
        contentType: "application/problem+json",
        body: {
          type: "https://stoplight.io/prism/errors#NOT_FOUND",
          title: "The server cannot find the requested content",
          status: 404,
          detail: `Response for contentType: ${selected.mediaType ?? "(none)"} and exampleKey: ${name} does not exist.`,
        },
        source: "example",
      };
    },
  };
}
