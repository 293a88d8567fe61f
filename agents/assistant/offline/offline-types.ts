import type { Json } from "../../../specs/json-object.js";
import type { VerbKind } from "../../language/lexicon/verbs.js";
import type { SpanKind, TextFacts } from "../../language/text-facts.js";
import type { NameWords } from "../../language/word-patterns.js";
import type { Memo } from "../../roles/memo.js";

/*
 * The shapes the offline model reads and keeps: tools and their parameters, what it reads of them, fills,
 * rankings, messages, and the toolbox that owns its caches (`offline-toolbox.ts` implements it). Every file of the
 * model imports these shapes from here, so no file's types depend on a file that depends on it.
 */

/** A tool as the offline model reads it (OpenAI function form, flattened). */
export interface OfflineToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (`{type: "object", properties, required}`). */
  parameters: Record<string, unknown>;
}

/** One argument of a tool (or a property of an object argument), with what helps to fill it. */
export interface Param {
  /** Argument name (last path segment). */
  name: string;
  /** Path from the top-level arguments (nested object properties). */
  path: string[];
  schema: Json;
  required: boolean;
  /** Plain words naming it, as used in questions (`book id`, `city of the shipping address`). */
  phrase: string;
  description: string;
}

/** A cue rule compiled for a parameter: the kinds of value it takes after which words. */
export interface CueRule {
  kinds: readonly SpanKind[];
  before: RegExp;
}

/** What slot filling reads of a parameter. */
export interface ParamTraits {
  /** The lowercase words of the name. */
  words: readonly string[];
  /** {@link normalizeKey} of the name. */
  key: string;
  /** The name's path, joined. */
  pathKey: string;
  isId: boolean;
  /** The id's resource words from the name, as stems (empty: the tool's name says it). */
  idResource: readonly string[];
  /** The name's words as lexicon rules read them. */
  named: NameWords;
  /** The cue rules that apply. */
  cues: readonly CueRule[];
  kinds?: SpanKind[];
  anchors?: string[];
  specificity?: number;
}

/** What the planning reads of a tool. */
export interface ToolTraits {
  /** The lowercase words of the name. */
  nameWords: readonly string[];
  /** Their stems. */
  nameStems: readonly string[];
  lister: boolean;
  searcher: boolean;
  /** The kind of operation its name's verb (else its description's first word) asks for. */
  verbKind: VerbKind | undefined;
  /** Every kind it shows: its name's verb and the first verbs of its description's sentences. */
  verbKinds: ReadonlySet<VerbKind>;
}

/** The arguments a fill found, what is still missing, and where values came from. */
export interface FillOutcome {
  args: Json;
  /** Required parameters still without a value. */
  missing: Param[];
  /** Where values came from, for the debug notes. */
  notes: string[];
  /** How many values came from the user's words. */
  fromText: number;
  /** The text values used (`source:start`). */
  used: ReadonlySet<string>;
}

/** A tool's place in a ranking. */
export interface Ranked {
  tool: number;
  score: number;
  bm25: number;
}

/** A chat message as the offline model reads it: a LangChain `BaseMessage` or any object of the same shape. */
export interface ChatMessageLike {
  /** `system`, `human`, `ai` or `tool`. */
  readonly type: string;
  readonly content: unknown;
  readonly additional_kwargs?: Record<string, unknown>;
  /** AI messages: the tool calls. */
  readonly tool_calls?: ReadonlyArray<{ id?: string | undefined; name: string; args: Record<string, unknown> }>;
  /** Tool messages: the call answered, and the tool's name. */
  readonly tool_call_id?: string;
  readonly name?: string | undefined;
}

/** What the tool index offers the model (BM25 over a list of tools; see `tool-index.ts`). */
export interface ToolIndexView {
  readonly tools: readonly OfflineToolSpec[];
  /** The identity of the tool list (equal lists, equal keys). */
  readonly key: string;
  /** The word stems of each tool's name, description and parameters. */
  readonly stems: ReadonlyArray<ReadonlySet<string>>;
  /** BM25 score per tool index for a text (tools that do not match are absent). */
  scores(text: string): ReadonlyMap<number, number>;
  /** How many tools of the index have a word stem. */
  stemHolders(w: string): number;
  /** The pairs of adjacent content words of each tool's description (`revers geocod`), as `a b`. */
  readonly phrases: ReadonlyArray<ReadonlySet<string>>;
  /** How many tools of the index have a pair of adjacent content words in their description. */
  phraseHolders(pair: string): number;
  /** The first words of the tools' names (`refresh`, `activate`). */
  catalogVerbs(): string[];
  /** The stems of the words of the tools' names. */
  nameStems(): ReadonlySet<string>;
}

/**
 * What the offline model knows of one list of bound tools, and the owner of every cache the model keeps (what it
 * read of tools, parameters and texts). One per tool list and assistant; nothing is kept per process.
 */
export interface OfflineToolbox {
  readonly tools: readonly OfflineToolSpec[];
  readonly effectiveSchemas: WeakMap<Json, Json>;
  readonly paramLists: WeakMap<Json, Map<string, Param[]>>;
  readonly optionalCopies: WeakMap<Param, Param>;
  readonly paramTraits: WeakMap<Param, ParamTraits>;
  readonly toolTraits: WeakMap<OfflineToolSpec, ToolTraits & { name: string; description: string }>;
  readonly toolResults: WeakMap<ChatMessageLike, { text: string; status: number; body: unknown }>;
  readonly normalizedKeys: Memo<string, string>;
  readonly toolResources: Memo<string, readonly string[]>;
  readonly holderStems: Memo<string, readonly string[]>;
  readonly schemaPatterns: Memo<string, RegExp | null>;
  readonly fills: Memo<string, Map<string, FillOutcome>>;
  readonly rankings: Memo<string, Ranked[]>;
  /** The number of a tool (equal tools, equal numbers). */
  toolId(t: OfflineToolSpec): number;
  /** The BM25 index of a list of tools (the bound ones, or the part a ToolSearcher found). */
  index(tools: readonly OfflineToolSpec[]): ToolIndexView;
  /** The lemma of a word, remembered. */
  stem(word: string): string;
  /** Whether a stem is an operation verb or an everyday concept (it names no resource). */
  isVerbOrConcept(stem: string): boolean;
  /** The lowercase word tokens of a text (do not change the list). */
  lowerTokens(text: string): readonly string[];
  /** The values in a text. */
  factsOf(text: string): TextFacts;
  /** The clauses of a request, with the catalogue's own verbs as clause starts too. */
  clauses(text: string, extraVerbs: readonly string[]): readonly string[];
}
