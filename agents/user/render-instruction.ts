import { createRng, deriveSeed, type Rng } from "../../specs/seed.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { FOLLOW_UP_OPENERS, INSTRUCTION_TEMPLATES, templatesFor, type TemplateSlots } from "./instruction-templates.js";
import { operationGoal, type OperationGoal } from "./operation-goal.js";
import type { PlanRequest, PlanStep } from "../roles/plan.js";
import { chainCandidates, type ChainCandidate, type ChainKind } from "./plan-chains.js";
import { toolArguments } from "../assistant/tool-arguments.js";
import type { Toolbox, ToolboxEntry } from "../roles/toolbox.js";
import { changePair, coordinateOf, coordinatePhrase, isIdName, quoteIfText, settingPhrase, valuePhrase, valueText } from "../language/value-phrase.js";
import { capitalize, decapitalize, gerundPhrase, identifierWords, joinList, singular } from "../language/words.js";
import { CONVERSION_NAMES } from "../language/lexicon/names.js";
import { wholeWord, wordAtStart, wordThenSpace } from "../language/word-patterns.js";

const INDEFINITE_ARTICLE = wordThenSpace(["a", "an"]);
const INDEFINITE = wordThenSpace(["a", "an", "one"]);
const DETERMINED = wordAtStart(["the", "my", "a", "an", "your", "our"], "");
const AMOUNT_NAME = wholeWord(CONVERSION_NAMES.amount);
const FROM_CURRENCY_NAME = wholeWord(CONVERSION_NAMES.from);

/** A clause of a request: a verb (`show me`, `find`) and what follows it. */
interface Clause {
  verb: string;
  rest: string;
}

type Form = "you" | "me" | "ing";

function clauseText(c: Clause, form: Form): string {
  let verb = c.verb;
  if (form === "me") verb = verb.replace(/^show me\b/, "see").replace(/^tell me\b/, "know");
  if (form === "ing") verb = gerundPhrase(verb);
  return [verb.trim(), c.rest].filter((s) => s !== "").join(" ");
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The seed of a request's wording: a function of the request alone, so the same plan always reads the same. */
export function wordingSeed(request: PlanRequest, position: number): number {
  return deriveSeed(0x0ff1ce, "instruction", position, stableStringify(request));
}

/** The value phrases of one step: every planned, mentioned argument in the tool's order (coordinates in pairs). */
export function stepPhrases(entry: ToolboxEntry, step: PlanStep, hidden: ReadonlySet<string>, goal: OperationGoal, rng: Rng, verb?: string): string[] {
  const infos = toolArguments(entry.toolset.catalog, entry.tool);
  const linked = new Set(step.links.map((l) => l.arg));
  const said = infos.filter((a) => a.name in step.args && !linked.has(a.name) && !hidden.has(a.name));
  const phrases: string[] = [];
  const done = new Set<string>();
  // A change says its new values together: "setting the status to cancelled and the end to ...".
  const settings: string[] = [];
  const changes = goal.kind === "update";
  // "Change my password from X to Y": an old and a new value of the same thing.
  const pair = changes ? changePair(said) : undefined;
  if (pair) {
    phrases.push(`from ${quoteIfText(pair.old.name, step.args[pair.old.name])} to ${quoteIfText(pair.new.name, step.args[pair.new.name])}`);
    done.add(pair.old.name).add(pair.new.name);
  }
  for (const arg of said) {
    if (done.has(arg.name)) continue;
    if (changes && arg.in === "body") {
      settings.push(settingPhrase(arg, step.args[arg.name]));
      done.add(arg.name);
      continue;
    }
    const coordinate = coordinateOf(arg.name);
    if (coordinate) {
      const partner = said.find((b) => b !== arg && !done.has(b.name) && coordinateOf(b.name)?.prefix === coordinate.prefix && coordinateOf(b.name)?.axis !== coordinate.axis);
      if (partner) {
        const [lat, lon] = coordinate.axis === "lat" ? [arg, partner] : [partner, arg];
        phrases.push(coordinatePhrase(coordinate.prefix, step.args[lat.name], step.args[lon.name], rng));
        done.add(arg.name).add(partner.name);
        continue;
      }
    }
    phrases.push(valuePhrase(arg, step.args[arg.name], goal, rng));
    done.add(arg.name);
  }
  if (settings.length > 0) {
    // Not "change my profile changing ...": the connector is another verb than the request's own.
    const root = (verb ?? "").split(" ")[0]?.replace(/e$/, "") ?? "";
    const connectors = ["setting", "changing", "updating"].filter((c) => root === "" || !c.startsWith(root));
    const text = joinList(settings);
    phrases.push(/^(marking|switching|turning) /.test(text) && settings.length === 1 ? text : `${rng.pick(connectors)} ${text}`.replace(/^(setting|changing|updating) (marking|switching|turning) /, "$2 "));
  }
  return phrases;
}

function identifies(entry: ToolboxEntry, step: PlanStep, hidden: ReadonlySet<string>): boolean {
  return Object.keys(step.args).some((a) => !hidden.has(a) && isIdName(a)) || step.links.length > 0 || entry.tool.parameters.some((p) => p.in === "path" && p.arg in step.args && !hidden.has(p.arg));
}

function withObject(goal: OperationGoal, definite: boolean): string {
  return definite ? goal.object.replace(INDEFINITE_ARTICLE, "the ") : goal.object;
}

/** The clause of a step that stands on its own (no value from an earlier step). */
function plainClause(entry: ToolboxEntry, step: PlanStep, hidden: ReadonlySet<string>, rng: Rng): Clause {
  const goal = operationGoal(entry.tool);
  const verb = rng.pick(goal.verbs);
  const folded = foldedObject(entry, step, hidden, goal);
  const phrases = stepPhrases(entry, step, folded.hidden, goal, rng, verb);
  const object = folded.object ?? withObject(goal, identifies(entry, step, hidden));
  return { verb, rest: [object, ...phrases].filter((s) => s !== "").join(" ") };
}

/**
 * An object that a value says better than its generic words: "the place nearest to a coordinate" at
 * 37.79, -122.39 -> "the place nearest to 37.79, -122.39"; "an amount" of 250 from GBP -> "250 GBP".
 * Returns the new object (if any) and the arguments then left unsaid by the value phrases.
 */
function foldedObject(entry: ToolboxEntry, step: PlanStep, hidden: ReadonlySet<string>, goal: OperationGoal): { object?: string; hidden: ReadonlySet<string> } {
  const has = (name: string): boolean => name in step.args && !hidden.has(name) && !step.links.some((l) => l.arg === name);
  const names = Object.keys(step.args);
  const coordinate = /\b(a|an|one)\s+(coordinate|point|position|location)$/i;
  if (coordinate.test(goal.object)) {
    const lat = names.find((n) => coordinateOf(n)?.axis === "lat" && coordinateOf(n)?.prefix === "" && has(n));
    const lon = names.find((n) => coordinateOf(n)?.axis === "lon" && coordinateOf(n)?.prefix === "" && has(n));
    if (lat !== undefined && lon !== undefined) {
      return { object: goal.object.replace(coordinate, `the coordinates ${valueText(step.args[lat])}, ${valueText(step.args[lon])}`), hidden: new Set([...hidden, lat, lon]) };
    }
  }
  // "look up a word" with word "spring": "look up the word "spring"".
  const thing = /^(an?|the)\s+([a-z]+)$/i.exec(goal.object);
  if (thing) {
    const named = names.find((n) => n.toLowerCase() === (thing[2] ?? "").toLowerCase() && has(n) && typeof step.args[n] === "string");
    if (named !== undefined) {
      const v = step.args[named] as string;
      return { object: `the ${thing[2]} ${/^".*"$/.test(v) ? v : `"${v}"`}`, hidden: new Set([...hidden, named]) };
    }
  }
  const amount = /^(an?|the)\s+(amount|sum)$/i.exec(goal.object);
  if (amount) {
    const value = names.find((n) => AMOUNT_NAME.test(n) && has(n) && typeof step.args[n] === "number");
    if (value !== undefined) {
      const from = names.find((n) => FROM_CURRENCY_NAME.test(n) && has(n) && typeof step.args[n] === "string");
      const object = from !== undefined ? `${valueText(step.args[value])} ${valueText(step.args[from])}` : valueText(step.args[value]);
      return { object, hidden: new Set([...hidden, value, ...(from !== undefined ? [from] : [])]) };
    }
  }
  return { hidden };
}

/** What a chain looks like between two steps: from the toolbox's chain candidates, else guessed from the links. */
function chainOf(toolbox: Toolbox, from: ToolboxEntry, to: ToolboxEntry, step: PlanStep): Pick<ChainCandidate, "kind" | "direct" | "coordinates" | "noun"> {
  const found = chainCandidates(toolbox).find((c) => c.from === from && c.to === to && c.links.every((l) => step.links.some((s) => s.arg === l.arg)));
  if (found) return found;
  const kind: ChainKind = from.tool.operation.method === "post" ? "create" : step.links.some((l) => /(^|\.)\d+(\.|$)/.test(l.field)) ? "search" : "lookup";
  const coordinates = step.links.every((l) => coordinateOf(l.arg) !== undefined);
  const first = step.links.find((l) => coordinateOf(l.arg) === undefined);
  const noun = first ? identifierWords(first.arg).slice(0, -1).join(" ") || operationGoal(to.tool).noun : "place";
  return { kind, direct: true, coordinates, noun };
}

const SEARCH_REFERENCES = ["the first one", "the first result", "the top result", "the first match"];
const GENERIC_LISTS = /^(|items|results|data|records|entries|hits|list|content|values|matches|rows|docs|documents|objects|elements)$/i;

/** What one item of a search's or list's results is called (`books` -> `book`, `job postings` -> `job posting`), if plain. */
function itemNounOf(from: ToolboxEntry): string | undefined {
  const object = operationGoal(from.tool).object;
  if (!/^[a-z]+(?: [a-z]+)?$/.test(object) || DETERMINED.test(object)) return undefined;
  const words = object.split(" ");
  return [...words.slice(0, -1), singular(words[words.length - 1] ?? "")].join(" ");
}

/** How the user points at the item of a search result: "the first one", or "the first album" for a named list. */
function searchReference(from: ToolboxEntry, step: PlanStep, rng: Rng, itemNoun?: string): string {
  const path = step.links[0]?.field.split(".") ?? [];
  const at = path.indexOf("0");
  const list = at > 0 ? (path[at - 1] ?? "") : "";
  // A list inside one read thing (an order's items) is named; a search's own results are "the first one" (or "the first book").
  const readsOne = /\}$/.test(from.tool.operation.path);
  if (GENERIC_LISTS.test(list) && !(readsOne && list !== "")) {
    const named = itemNoun !== undefined && /^[a-z][a-z -]*$/.test(itemNoun) && itemNoun.split(" ").length <= 2 ? [`the first ${itemNoun}`, `the top ${itemNoun}`] : [];
    return rng.pick([...SEARCH_REFERENCES, ...named]);
  }
  const noun = identifierWords(singular(list)).join(" ");
  return rng.pick([`the first ${noun}`, `the top ${noun}`]);
}

/** The clause of a step whose values come from an earlier one ("and show me the details of the first one"). */
function linkedClause(toolbox: Toolbox, from: ToolboxEntry, entry: ToolboxEntry, step: PlanStep, hidden: ReadonlySet<string>, rng: Rng): Clause {
  const goal = operationGoal(entry.tool);
  const chain = chainOf(toolbox, from, entry, step);
  const verb = rng.pick(goal.verbs);
  const phrases = stepPhrases(entry, step, hidden, goal, rng, verb);
  const tail = phrases.length > 0 ? " " + phrases.join(" ") : "";
  const ref = chain.kind === "search" ? searchReference(from, step, rng, itemNounOf(from)) : "it";
  const definite = goal.definite ?? withObject(goal, true);
  if (chain.coordinates) {
    if (chain.kind === "search") return { verb, rest: `${definite} for ${ref}${tail}` };
    return { verb, rest: `${definite} there${tail}` };
  }
  if (!chain.direct) {
    const noun = chain.noun;
    // A read of something of the linked record ("the cast and crew details" of an anime) asks for that, not the record.
    const own = goal.kind === "get" && !goal.object.includes(noun) && norm(singular(goal.noun)) !== norm(singular(noun));
    const what = own ? definite : `the ${noun}`;
    if (chain.kind === "search") return { verb: rng.pick(["show me", "look up", "get"]), rest: `${rng.pick([`${what} of`, `${what} for`])} ${ref}${tail}` };
    return { verb: rng.pick(["show me", "look up", "get"]), rest: `its ${noun}${tail}` };
  }
  const readsItself = goal.kind === "get" && (goal.object.includes(chain.noun) || norm(singular(goal.noun)) === norm(singular(chain.noun)));
  if (readsItself) {
    if (chain.kind === "search") return rng.pick([{ verb: "show me", rest: `the full details of ${ref}${tail}` }, { verb: rng.pick(["get", "pull up"]), rest: `the details of ${ref}${tail}` }, { verb: "open", rest: `${ref}${tail}` }]);
    if (chain.kind === "create") {
      const noun = goal.noun || chain.noun;
      return rng.pick([{ verb: "show me", rest: `the saved ${noun}${tail}` }, { verb: "fetch", rest: `the ${noun} again to check it was saved${tail}` }, { verb: "open", rest: `the new ${noun}${tail}` }]);
    }
    return { verb: rng.pick(["show me", "get"]), rest: `its full details${tail}` };
  }
  if (goal.kind === "get" || goal.kind === "check") {
    const about = chain.kind === "search" ? rng.pick(["of", "for"]) : "for";
    return { verb, rest: `${goal.kind === "check" ? goal.object : definite} ${about} ${ref}${tail}` };
  }
  // Change, delete or act on the earlier result: its noun phrase becomes the reference.
  const m = /^((?:to|for|on|from|with|into|at)\s+)?(?:a|an|the|my|your)\s+\S+.*$/i.exec(goal.object);
  const object = m ? `${m[1] ?? ""}${ref}` : goal.object === "" ? ref : `${goal.object} for ${ref}`;
  return { verb, rest: `${object}${tail}` };
}

/** Words a request: its steps as clauses joined naturally, chains as one goal. */
export function requestWording(request: PlanRequest, toolbox: Toolbox, rng: Rng): TemplateSlots {
  const hiddenOf = (i: number): Set<string> =>
    new Set(request.withheld.filter((w) => w.startsWith(`${i}:`)).map((w) => w.slice(w.indexOf(":") + 1)));
  const entries = request.steps.map((s) => {
    const e = toolbox.get(s.tool);
    if (!e) throw new Error(`plan names a tool that is not in the toolbox: ${s.tool}`);
    return e;
  });
  const clauses: Clause[] = [];
  const connectors: string[] = [];
  request.steps.forEach((step, i) => {
    const entry = entries[i] as ToolboxEntry;
    const fromIndex = step.links[0]?.fromStep;
    const from = fromIndex !== undefined ? entries[fromIndex] : undefined;
    clauses.push(from ? linkedClause(toolbox, from, entry, step, hiddenOf(i), rng) : plainClause(entry, step, hiddenOf(i), rng));
    if (i === 0) return;
    const last = i === request.steps.length - 1;
    if (from) connectors.push(request.steps.length > 2 && last ? rng.pick([", and ", ", and then "]) : rng.pick([" and ", ", then ", ", and then "]));
    else if (request.steps.length > 2 && !last) connectors.push(rng.pick([", ", ", then "]));
    else connectors.push(request.steps.length > 2 ? rng.pick([", and then ", ", and finally "]) : rng.pick([", and then ", " and also ", ", then ", " and "]));
  });
  const join = (form: Form): string => clauses.map((c, i) => (i === 0 ? "" : connectors[i - 1]) + clauseText(c, form)).join("");
  const out: TemplateSlots = { vp: join("you"), selfVp: join("me"), ing: join("ing") };
  const only = request.steps[0];
  const entry = entries[0];
  if (request.steps.length === 1 && only && entry && only.links.length === 0) {
    const goal = operationGoal(entry.tool);
    if (nounPhraseGoal(goal)) {
      const folded = foldedObject(entry, only, hiddenOf(0), goal);
      const phrases = stepPhrases(entry, only, folded.hidden, goal, rng);
      out.np = [folded.object ?? goal.definite, ...phrases].join(" ");
    }
  }
  return out;
}

/** Whether a request can be worded with a noun-phrase template ("What's the forecast in Paris?"). */
export function hasNounPhrase(request: PlanRequest, toolbox: Toolbox): boolean {
  const only = request.steps[0];
  if (request.steps.length !== 1 || !only || only.links.length > 0) return false;
  const entry = toolbox.get(only.tool);
  return entry !== undefined && nounPhraseGoal(operationGoal(entry.tool));
}

/** Goals about one definite thing ("the daily forecast", "my profile"), which read well as "What's ...?". */
function nounPhraseGoal(goal: OperationGoal): goal is OperationGoal & { definite: string } {
  return goal.definite !== undefined && !INDEFINITE.test(goal.object);
}

/** Spaces tidied outside quoted values (one space, none before `,.?`); a quoted value stays as it is written (`"Où est la gare ?"`). */
function tidy(text: string): string {
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\s+/g, " ").replace(/\s+([,.?])/g, "$1")))
    .join("")
    .trim();
}

/**
 * The instruction text of a request: its template filled with the request's wording. The wording's
 * choices are seeded by the request itself, so a plan always gives the same text. `position` is the
 * request's index in the dialogue; later requests open with a follow-up ("One more thing: ...").
 */
export function renderInstruction(request: PlanRequest, toolbox: Toolbox, position: number): string {
  const rng = createRng(wordingSeed(request, position));
  const wording = requestWording(request, toolbox, rng);
  let index = request.template;
  let template = index !== undefined ? INSTRUCTION_TEMPLATES[index] : undefined;
  if (!template || (template.needsNounPhrase && wording.np === undefined)) {
    const fits = templatesFor(request.style, wording.np !== undefined);
    index = rng.pick(fits);
    template = INSTRUCTION_TEMPLATES[index] as (typeof INSTRUCTION_TEMPLATES)[number];
  }
  const text = tidy(template.render(wording));
  if (position === 0) return text;
  const opener = rng.pick(FOLLOW_UP_OPENERS);
  // "Next, hey, can you ...": a follow-up does not greet again.
  const body = text.replace(/^(hey|hi|hello),?\s+/i, "");
  const next = body === text ? text : capitalize(body);
  return /[:,] $/.test(opener) ? opener + decapitalize(next) : opener + next;
}
