import { describe, expect, it } from "vitest";
import { anyStem, anyWord, endsWithAny, stemAtStart, wholeWord, wordAtStart, wordsPattern, wordThenSpace } from "../../../agents/language/word-patterns.js";
import { QUESTION_CUES } from "../../../agents/language/lexicon/questions.js";
import { JUDGE_ANSWERS } from "../../../agents/language/lexicon/judgements.js";
import { DOMAIN_STEMS } from "../../../agents/language/lexicon/value-domains.js";

describe("word patterns over lexicon lists", () => {
  it("anchors words where the helper says: at the start, before a space, whole, or anywhere as stems", () => {
    expect(wordAtStart(["shall i", "ok to"]).test("Shall I book it?")).toBe(true);
    expect(wordAtStart(["shall i"]).test("Shall Ivan book it?")).toBe(false);
    expect(wordAtStart(["the"], "").test("The list")).toBe(false);
    expect(wordThenSpace(["a", "an"]).test("an apple")).toBe(true);
    expect(wordThenSpace(["a", "an"]).test("another apple")).toBe(false);
    expect("one city".replace(wordThenSpace(["a", "an", "one"]), "the ")).toBe("the city");
    expect(wholeWord(["q", "query"], "").test("Query")).toBe(false);
    expect(wholeWord(["q", "query"]).test("Query")).toBe(true);
    expect(anyStem(["currenc", "iso 4217"]).test("the currencies to convert")).toBe(true);
    expect(anyStem(["currenc", "iso 4217"]).test("an iso  4217 code")).toBe(true);
    expect(anyStem(["currenc"]).test("Currency")).toBe(false);
    expect(endsWithAny(["lookup", "ing"]).test("Dictionary Lookup")).toBe(true);
    expect(endsWithAny(["lookup", "ing"]).test("lookups")).toBe(false);
    expect(stemAtStart(JUDGE_ANSWERS.uncertain).test("partially correct")).toBe(true);
    expect(stemAtStart(JUDGE_ANSWERS.uncertain).test("it is partial")).toBe(false);
  });

  it("escapes entries, so lexicon words are never patterns", () => {
    expect(new RegExp(`^(?:${wordsPattern(["n/a", "a.b"])})$`).test("axb")).toBe(false);
    expect(new RegExp(`^(?:${wordsPattern(["n/a", "a.b"])})$`).test("a.b")).toBe(true);
    expect(anyWord(["e-mail", "email"], "").test("your e-mail please")).toBe(true);
  });

  it("reads the question cues and domain stems of the lexicon as whole words and stems", () => {
    const cue = (kind: string): RegExp => anyWord(QUESTION_CUES.find((c) => c.kind === kind)?.cues ?? [], "");
    expect(cue("count").test("how many nights?")).toBe(true);
    expect(cue("date").test("what's the update?")).toBe(false);
    expect(cue("date").test("what date works?")).toBe(true);
    expect(anyStem(DOMAIN_STEMS.past).test("the exchange rates of last year")).toBe(true);
    expect(anyStem(DOMAIN_STEMS.past).test("a trip next month")).toBe(false);
  });
});
