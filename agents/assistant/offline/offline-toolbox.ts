import type { Json } from "../../../specs/json-object.js";
import { ClauseSplitter } from "../../language/clauses.js";
import { lemma } from "../../language/inflect.js";
import { isGroupWord } from "../../language/operation-words.js";
import { TextFacts } from "../../language/text-facts.js";
import { tokenize } from "../../language/tokenize.js";
import { Memo } from "../../roles/memo.js";
import { ToolIndex } from "./tool-index.js";
import type { ChatMessageLike, FillOutcome, OfflineToolbox, OfflineToolSpec, Param, ParamTraits, Ranked, ToolTraits } from "./offline-types.js";

export type { OfflineToolbox };

/*
 * The offline model's knowledge of one list of bound tools, and the owner of every cache the model keeps: the
 * tool index, what it read of each tool and parameter, and what it read of texts seen with these tools (facts,
 * clauses, rankings, fills). Caches belong to a toolbox, and toolboxes to the assistant or chat model that made
 * them (`OfflineToolboxes`): nothing is kept per process, and two assistants never share state.
 */

/** Numbers for tools and tool lists: equal tools (name, description and parameters) get equal numbers. */
export class ToolIdentities {
  private readonly schemaIds = new WeakMap<object, number>();
  private readonly schemaTextIds = new Memo<string, number>(10_000);
  private readonly specIds = new WeakMap<OfflineToolSpec, { name: string; description: string; parameters: object; id: number }>();
  private readonly specTextIds = new Memo<string, number>(10_000);
  private nextSchema = 0;
  private nextSpec = 0;

  private schemaId(parameters: object): number {
    let id = this.schemaIds.get(parameters);
    if (id === undefined) {
      // Equal schemas share an id, so a new toolbox over the same toolsets finds its index again.
      const text = JSON.stringify(parameters);
      id = this.schemaTextIds.get(text);
      if (id === undefined) {
        id = this.nextSchema++;
        this.schemaTextIds.set(text, id);
      }
      this.schemaIds.set(parameters, id);
    }
    return id;
  }

  /** The number of a tool (equal for tools with the same name, description and parameters). */
  toolId(t: OfflineToolSpec): number {
    const hit = this.specIds.get(t);
    if (hit && hit.name === t.name && hit.description === t.description && hit.parameters === t.parameters) return hit.id;
    const text = `${this.schemaId(t.parameters)}\u0000${t.name}\u0000${t.description}`;
    let id = this.specTextIds.get(text);
    if (id === undefined) {
      id = this.nextSpec++;
      this.specTextIds.set(text, id);
    }
    this.specIds.set(t, { name: t.name, description: t.description, parameters: t.parameters, id });
    return id;
  }

  /** A cheap identity of a tool list: the number of each tool, in order. */
  listKey(tools: readonly OfflineToolSpec[]): string {
    let key = "";
    for (const t of tools) key += `${this.toolId(t)},`;
    return key;
  }
}

/** What the offline model knows of one list of bound tools, with the caches of what it read (see {@link OfflineToolbox}). */
export class CachingToolbox implements OfflineToolbox {
  /** {@link effectiveSchema} of each schema object. */
  readonly effectiveSchemas = new WeakMap<Json, Json>();
  /** The parameters of each object schema, by path. */
  readonly paramLists = new WeakMap<Json, Map<string, Param[]>>();
  /** Optional copies of required parameters under optional parents. */
  readonly optionalCopies = new WeakMap<Param, Param>();
  readonly paramTraits = new WeakMap<Param, ParamTraits>();
  readonly toolTraits = new WeakMap<OfflineToolSpec, ToolTraits & { name: string; description: string }>();
  /** Parsed tool messages (a dialogue's messages are read again every turn). */
  readonly toolResults = new WeakMap<ChatMessageLike, { text: string; status: number; body: unknown }>();
  readonly normalizedKeys = new Memo<string, string>(2048);
  readonly toolResources = new Memo<string, readonly string[]>(512);
  readonly holderStems = new Memo<string, readonly string[]>(512);
  /** Compiled schema patterns (`null`: JavaScript cannot compile it). */
  readonly schemaPatterns = new Memo<string, RegExp | null>(512);
  /** Fills by request text, then by tool, clause and replies. */
  readonly fills = new Memo<string, Map<string, FillOutcome>>(128);
  /** Rankings by index, clause, context and replies. */
  readonly rankings = new Memo<string, Ranked[]>(256);
  private readonly phrasePatterns = new Memo<string, RegExp>(1024);
  private readonly factsMemo = new Memo<string, TextFacts>(128);
  private readonly tokensMemo = new Memo<string, readonly string[]>(2048);
  private readonly stems = new Memo<string, string>(4096);
  private readonly clauseMemo = new Memo<string, readonly string[]>(256);
  private readonly splitters = new Memo<string, ClauseSplitter>(8);
  private readonly indexes = new Memo<string, ToolIndex>(16);

  constructor(
    /** The bound tools. */
    readonly tools: readonly OfflineToolSpec[],
    private readonly ids: ToolIdentities = new ToolIdentities(),
  ) {}

  /** The number of a tool (equal tools, equal numbers). */
  toolId(t: OfflineToolSpec): number {
    return this.ids.toolId(t);
  }

  /** The BM25 index of a list of tools (the bound ones, or the part a ToolSearcher found). */
  index(tools: readonly OfflineToolSpec[]): ToolIndex {
    const key = this.ids.listKey(tools);
    return this.indexes.getOrCompute(key, () => new ToolIndex(this, tools, key));
  }

  /** The lemma of a word (see `lemma`), remembered. */
  stem(word: string): string {
    return this.stems.getOrCompute(word, lemma);
  }

  /** Whether a stem is an operation verb or an everyday concept (it names no resource). */
  isVerbOrConcept(stem: string): boolean {
    return isGroupWord(stem);
  }

  /** The lowercase word tokens of a text (remembered for short texts; do not change the list). */
  lowerTokens(text: string): readonly string[] {
    if (text.length > 80) return tokenize(text).map((w) => w.toLowerCase());
    return this.tokensMemo.getOrCompute(text, (t) => tokenize(t).map((w) => w.toLowerCase()));
  }

  /** The values in a text (remembered: texts repeat across the turns of a dialogue). */
  factsOf(text: string): TextFacts {
    return this.factsMemo.getOrCompute(text, (t) => new TextFacts(t, this.phrasePatterns));
  }

  /** The clauses of a request, with the catalogue's own verbs as clause starts too. */
  clauses(text: string, extraVerbs: readonly string[]): readonly string[] {
    const verbsKey = extraVerbs.join("|");
    return this.clauseMemo.getOrCompute(`${verbsKey}\u0000${text}`, () => this.splitters.getOrCompute(verbsKey, () => new ClauseSplitter(extraVerbs)).split(text));
  }
}

/** The toolboxes of one assistant or chat model, by tool list (the most recent ones kept). */
export class OfflineToolboxes {
  private readonly ids = new ToolIdentities();
  private readonly boxes = new Memo<string, CachingToolbox>(32);

  /** The toolbox of a list of bound tools (equal lists share one). */
  for(tools: readonly OfflineToolSpec[]): OfflineToolbox {
    return this.boxes.getOrCompute(this.ids.listKey(tools), () => new CachingToolbox(tools, this.ids));
  }
}
