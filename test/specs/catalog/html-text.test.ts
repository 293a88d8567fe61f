import { describe, expect, it } from "vitest";
import { htmlText } from "../../../specs/catalog/html-text.js";

describe("htmlText", () => {
  it("reads a description written in HTML as text: tags out, entities decoded, one space between blocks", () => {
    expect(htmlText('Halo 5 - Enemies. <br /> <h4>Changelog</h4> <div class="panel-body"> <p><strong>February 21, 2017:</strong></p> <ul> <li>Renamed "Enemies".</li></ul> </div>')).toBe(
      'Halo 5 - Enemies. Changelog February 21, 2017: Renamed "Enemies".',
    );
    expect(htmlText("Tom &amp; Jerry <b>bold</b>, <a href=\"https://x.example\">a link</a>&nbsp;here.")).toBe("Tom & Jerry bold, a link here.");
  });

  it("leaves text without HTML tags as written (`List<String>`, `a < b`, a lone `&amp;`)", () => {
    for (const text of ["Returns List<String> when a < b &amp; c", "Use <token> as the key", "x > 3"]) expect(htmlText(text)).toBe(text);
  });
});
