import { describe, expect, it } from "vitest";
import { namedLists } from "../../../simulator/stats/shared-names.js";

describe("lists whose different records share a name", () => {
  it("finds two records with different ids and one name, wherever the list is", () => {
    const body = { items: [{ id: 2832, name: "Deftly-D" }, { id: 9354, name: "Deftly-D" }], meta: { page: 1 } };
    expect(namedLists(body)).toEqual([{ path: "items", shared: { field: "name", value: "Deftly-D" } }]);
    expect(namedLists({ data: { records: [{ id: "a", title: "Dune" }, { id: "b", title: "Dune" }] } })[0]?.shared).toEqual({ field: "title", value: "Dune" });
  });

  it("counts lists of named records whose names differ, and leaves out copies of one record and unnamed lists", () => {
    expect(namedLists([{ id: 1, name: "Ana" }, { id: 2, name: "Bo" }])).toEqual([{ path: "" }]);
    // The same record twice is a repeated record (another figure), not two records sharing a name.
    expect(namedLists([{ id: 1, name: "Ana" }, { id: 1, name: "Ana" }])).toEqual([{ path: "" }]);
    expect(namedLists([{ name: "Ana" }, { name: "Ana" }])).toEqual([]);
    expect(namedLists([{ id: 1, price: 3 }, { id: 2, price: 3 }])).toEqual([]);
  });
});
