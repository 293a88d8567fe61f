import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../specs/catalog/load-catalog.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import { describeFunctions, describeStructure } from "../../toolsets/build/describe-functions.js";
import { parseFunctionDocs } from "../../toolsets/function-docs.js";
import { bundledToolsetsDir, loadToolsets } from "../../toolsets/load-toolset.js";

const SPECS = fileURLToPath(new URL("../fixtures/specs/core/", import.meta.url));

describe("function documentation", () => {
  it("parses ToolAlpaca's numbered format, with continuation lines", () => {
    const docs = parseFunctionDocs(`1. Name: searchStations
   Description: Search stations
     by name.
   Input: {"q": "Required. String. Part of a name."}
   Output: The stations.

2. Name: getStation
   Description: Get a station.
   Input: {}
   Output: The station.`);
    expect(docs.map((d) => d.name)).toEqual(["searchStations", "getStation"]);
    expect(docs[0]).toMatchObject({ description: "Search stations\nby name.", input: { q: "Required. String. Part of a name." }, output: "The stations.", line: 1 });
    expect(docs[1]?.input).toEqual({});
    expect(docs[1]?.line).toBe(7);
  });

  it("parses ToolAlpaca's NLDocumentation format", () => {
    const docs = parseFunctionDocs(`getRandomImage: Retrieve a random image.
Parameters: {}
Output: Successful response.
 - Format: application/json
searchImages: Search images.
Parameters: {"color": "string. One of: [wild, albino]."}
Output: The images.`);
    expect(docs.map((d) => [d.name, Object.keys(d.input ?? {})])).toEqual([
      ["getRandomImage", []],
      ["searchImages", ["color"]],
    ]);
  });

  it("gives no functions for free text, and keeps an Input that is not JSON as text", () => {
    expect(parseFunctionDocs("Sure! Here are some ideas for functions.")).toEqual([]);
    const [doc] = parseFunctionDocs("1. Name: x\n   Input: the name of a city");
    expect(doc?.input).toBeUndefined();
    expect(doc?.inputText).toBe("the name of a city");
  });

  it("parses every bundled toolset's functions back to its operations and arguments", async () => {
    const { toolsets } = await loadToolsets([bundledToolsetsDir()]);
    for (const ts of toolsets) {
      const docs = parseFunctionDocs(ts.functions);
      expect(docs.map((d) => d.name).sort(), ts.name).toEqual(ts.catalog.tools.map((t) => t.name).sort());
    }
  });

  it("derives documentation from a spec that parses back to the tools and their arguments", async () => {
    for (const file of ["petstore.yaml", "petstore-3.1.yaml", "petstore-swagger2.json", "serialization.yaml"]) {
      const loaded = await loadCatalog(`${SPECS}${file}`);
      expect(loaded.ok, file).toBe(true);
      if (!loaded.ok) continue;
      const catalog = loaded.value;
      const text = describeFunctions(catalog);
      const docs = parseFunctionDocs(text);
      expect(docs.map((d) => d.name), file).toEqual(catalog.tools.map((t) => t.name));
      docs.forEach((d, i) => {
        const tool = catalog.tools[i];
        if (!tool) return;
        const args = Object.keys((toolArgumentsSchema(catalog, tool)["properties"] as object) ?? {});
        expect(Object.keys(d.input ?? {}), `${file} ${d.name}`).toEqual(args);
        for (const arg of tool.required) expect(d.input?.[arg], `${d.name}.${arg}`).toMatch(/^Required\./);
        expect(d.output).not.toBe("");
      });
    }
  });

  it("writes structures in NLDocumentation notation", () => {
    expect(describeStructure({ type: "object", properties: { url: { type: "string" }, tags: { type: "array", items: { type: "string" } }, owner: { type: "object", properties: { id: {} } } } })).toBe(
      "Object{url, tags: Array[String], owner: Object{id}}",
    );
    expect(describeStructure({ type: "array", items: { type: "object", properties: { id: { type: "integer" } } } })).toBe("Array[Object{id}]");
    expect(describeStructure({ type: ["string", "null"] })).toBe("String");
  });
});
