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

describe("fromObservations: a bare `id` parameter", () => {
  const deletePatient: OfflineToolSpec = {
    name: "patients_delete",
    description: "Delete an existing patient.",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  };
  const offices = { data: [{ id: 36673, name: "Unique Developing", city: "West Aliya" }] };
  const patients = { data: [{ id: 4410, first_name: "Ada", last_name: "Moss" }] };

  function pickId(result: unknown, tool: string, age: number, text = "remove an existing patient"): unknown {
    const box = new OfflineToolboxes().for([deletePatient]);
    const p = paramsOf(box, deletePatient.parameters)[0];
    if (!p) throw new Error("no parameter");
    return fromObservations(box, p, deletePatient, recordsOf(result, tool, age), text)?.value;
  }

  it("is not the id of another resource an earlier request listed (an office's id for a patient)", () => {
    expect(pickId(offices, "offices_list", 100)).toBeUndefined();
  });

  it("is the id of the resource it names, from an earlier request too", () => {
    expect(pickId(patients, "patients_list", 100)).toBe("4410");
  });
});

describe("fromObservations: a record's id under another spelling", () => {
  it("reads `@id` as the record's id (a JSON-LD event list, then the first event)", () => {
    const getEvent: OfflineToolSpec = {
      name: "get_events_id",
      description: "Specific event details.",
      parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    };
    const box = new OfflineToolboxes().for([getEvent]);
    const p = paramsOf(box, getEvent.parameters)[0];
    if (!p) throw new Error("no parameter");
    const events = { events: [{ "@id": "fz7ad8xk6xht", "@type": "Event", name: "Dinner Validity" }, { "@id": "q81", "@type": "Event", name: "Late Show" }] };
    expect(fromObservations(box, p, getEvent, recordsOf(events, "get_events", 0), "show me the full details of the first event")?.value).toBe("fz7ad8xk6xht");
  });
});
