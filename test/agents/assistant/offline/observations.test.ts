import { describe, expect, it } from "vitest";
import { fromObservations, recordsOf } from "../../../../agents/assistant/offline/observations.js";
import { OfflineToolboxes } from "../../../../agents/assistant/offline/offline-toolbox.js";
import { paramsOf, type OfflineToolSpec } from "../../../../agents/assistant/offline/tool-params.js";

/** Values from earlier results: the id of the resource a parameter names, the record an ordinal points at. */

const getBook: OfflineToolSpec = {
  name: "getBook",
  description: "Get a book.",
  parameters: { type: "object", properties: { bookId: { type: "string", example: "bk-1001" } }, required: ["bookId"] },
};
const list = { items: [{ id: "bk-1001", title: "Night Ferry" }, { id: "bk-1002", title: "Blue Hour" }, { id: "bk-1003", title: "Salt and Saffron" }] };

function pick(userText: string): unknown {
  const box = new OfflineToolboxes().for([getBook]);
  const p = paramsOf(box, getBook.parameters)[0];
  if (!p) throw new Error("no parameter");
  return fromObservations(box, p, getBook, recordsOf(list, "listBooks", 0), userText)?.value;
}

describe("fromObservations", () => {
  it("takes the id of the record an ordinal points at", () => {
    expect(pick("Show me the first one")).toBe("bk-1001");
    expect(pick("Open the second book")).toBe("bk-1002");
    expect(pick("and the third one please")).toBe("bk-1003");
    expect(pick("the last one")).toBe("bk-1003");
  });

  it("takes the record whose values the user names", () => {
    expect(pick('the one called "Blue Hour"')).toBe("bk-1002");
  });

  it("takes no id that does not look like the parameter's example", () => {
    const box = new OfflineToolboxes().for([getBook]);
    const p = paramsOf(box, getBook.parameters)[0];
    if (!p) throw new Error("no parameter");
    expect(fromObservations(box, p, getBook, recordsOf({ items: [{ id: "scn-1" }] }, "listScenes", 0), "the first one")).toBeUndefined();
  });
});
