import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { getAt, toPointer } from "../json-pointer.js";
import { MinimalSizes } from "./minimal-size.js";
import { CapReached, rethrowControl, SynthesisMeter } from "./synthesis-meter.js";
import { currentBudget, type WorkBudget } from "./work-budget.js";
import { addOpenApiFormats } from "../catalog/openapi-formats.js";
import { useLinearUniqueItems } from "../catalog/unique-items.js";
import { linearRegExp } from "../load/patterns/linear-pattern.js";
import { fitsPrimitive, isPrimitiveSchema } from "./values/realistic-value.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import { guarded, unusableReason, type SchemaRegistry } from "../catalog/schema-registry.js";
import { deriveSeed } from "../seed.js";
import { CompiledGenerators, type GeneratorHost } from "./compiled-generator.js";
import { GenerationRun } from "./generation-run.js";
import { PreparedSchemas, type PreparationHost, type PreparedNode } from "./faker-schema.js";
import { FakerRun, type FakerOptions } from "./faker-run.js";
import { ownValue, type OwnHost, type OwnOptions } from "./own-generator.js";
import { RefGraph } from "./ref-graph.js";
import { ValueRepair, type RepairHost } from "./value-repair.js";
import { cloneJson, isZeroValue } from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** Options of `synthesize`. */
export interface SynthesizeOptions {
  /** The seed: one seed, one value, byte for byte. */
  seed: number;
  /** The name of the value (a parameter or property name), used to pick realistic values at the root. */
  name?: string;
  /** Probability of including an optional property near the top of the value (default 0.75). */
  optionals?: number;
  /**
   * The caps and time budget of the work (default: the budget of the request in progress, see `withBudget`,
   * else the default caps and no time limit). Reaching the time budget throws `BudgetExceeded`.
   */
  budget?: WorkBudget;
}

/** A synthesized value: whether it validates against its schema, and how many repairs it took. */
export interface Synthesized {
  value: unknown;
  valid: boolean;
  /** Fixes applied after generation (0 when the first value was valid). */
  repairs: number;
  /** Caps the value reached, and schemas with no finite value (each names where and which cap). */
  warnings: string[];
}

const MAX_ROUNDS = 8;

// ---------------------------------------------------------------- example checks

/** An example worth using: valid for its node, and not an editor placeholder. */
function primitiveFits(s: Json, v: unknown): boolean {
  if (v === "string" || v === "") return false;
  return fitsPrimitive(s, v);
}

/**
 * Everything `synthesize` caches for one registry and flavor: prepared schema copies, a node index, verbose
 * validators; the host of the compiled generators, json-schema-faker, repairs and the own generator.
 */
class Synthesizer implements GeneratorHost, PreparationHost, OwnHost, RepairHost {
  readonly doc: Json;
  private readonly compiled: CompiledGenerators = new CompiledGenerators(this);
  private readonly usable = new WeakMap<object, readonly unknown[]>();
  private index: WeakMap<object, string> | undefined;
  private verboseAjv: Ajv | undefined;
  private readonly verbose = new Map<string, ValidateFunction>();
  private readonly exampleChecks = new Map<string, boolean>();
  private readonly sizes: MinimalSizes;
  private readonly refs: RefGraph;
  private readonly schemas: PreparedSchemas;
  private readonly faker: FakerRun;
  private readonly repairs: ValueRepair;
  /** The meter of the synthesis in progress (prepared copies are cut to its caps). */
  private meter: SynthesisMeter = new SynthesisMeter(undefined, "a value");

  /** The meter of the synthesis in progress. */
  get currentMeter(): SynthesisMeter {
    return this.meter;
  }

  constructor(
    readonly registry: SchemaRegistry,
    readonly flavor: SchemaFlavor,
  ) {
    this.doc = registry.document(flavor);
    this.sizes = new MinimalSizes(this.doc);
    this.refs = new RefGraph(this.doc);
    this.schemas = new PreparedSchemas(this);
    this.faker = new FakerRun(this.schemas.resolveRef);
    this.repairs = new ValueRepair(this);
  }

  private readonly nodes = new Map<string, unknown>();

  /** The node at a pointer of the document (looked up once per pointer). */
  private nodeAtCached(pointer: string): unknown {
    let node = this.nodes.get(pointer);
    if (node === undefined && !this.nodes.has(pointer)) {
      node = getAt(this.doc, pointer);
      this.nodes.set(pointer, node);
    }
    return node;
  }

  /** The size of the smallest value of a node (Infinity: none exists; undefined: unknown). */
  minimalSize(node: unknown): number | undefined {
    if (node === undefined) return 1;
    if (isObject(node) && node["$ref"] === undefined && node["allOf"] === undefined && node["anyOf"] === undefined && node["oneOf"] === undefined && node["properties"] === undefined && node["items"] === undefined && node["required"] === undefined) return 1;
    return this.sizes.of(node);
  }

  // ------------------------------------------------------------ preparation (input for json-schema-faker)

  /** The prepared copy of the schema at a pointer, as seen at a ref level. */
  prepare(pointer: string, level: number): PreparedNode {
    return this.schemas.prepare(pointer, level);
  }

  /** The prepared copy of a node that is not addressable by pointer (e.g. a merged branch). */
  prepareNode(node: unknown, level: number): PreparedNode {
    return this.schemas.prepareNode(node, level);
  }

  /**
   * How much crossing a `$ref` to a target adds to the ref level: 0 for a small, non-recursive wrapper
   * (`{data: ...}` envelopes should not make the entity inside them sparse), else 1.
   */
  levelStep(target: string): number {
    return this.refs.levelStep(target);
  }

  /** Whether the schema at a pointer can reach itself through `$ref`s. */
  recursive(pointer: string): boolean {
    return this.refs.recursive(pointer);
  }

  /** Whether an example (or default) is valid for its node, and not an editor placeholder. */
  exampleFits(node: Json, pointer: string | undefined, value: unknown): boolean {
    if (isPrimitiveSchema(node)) return primitiveFits(node, value);
    if (value === null || value === undefined || pointer === undefined) return false;
    const key = `${pointer}|${JSON.stringify(value)}`;
    let okay = this.exampleChecks.get(key);
    if (okay === undefined) {
      try {
        okay = this.registry.validatorAt(this.flavor, pointer)(structuredClone(value)) === true;
      } catch (err) {
        rethrowControl(err);
        okay = false;
      }
      this.exampleChecks.set(key, okay);
    }
    return okay;
  }


  // ------------------------------------------------------------ json-schema-faker

  /** Generates with json-schema-faker from a prepared schema; undefined when it throws. */
  jsf(schema: PreparedNode, seed: number, options: FakerOptions): unknown {
    return this.faker.generate(schema, seed, this.meter, options);
  }


  /** Where a node of the converted document is (for local validators), if it is part of it. */
  pointerOf(node: object): string | undefined {
    if (!this.index) {
      const index = new WeakMap<object, string>();
      const walk = (n: unknown, pointer: string, depth: number): void => {
        if (typeof n !== "object" || n === null || depth > 200) return;
        if (index.has(n)) return;
        index.set(n, pointer);
        if (Array.isArray(n)) n.forEach((item, i) => walk(item, `${pointer}/${i}`, depth + 1));
        else for (const [k, v] of Object.entries(n)) walk(v, `${pointer}${toPointer([k])}`, depth + 1);
      };
      walk(this.doc, "", 0);
      this.index = index;
    }
    return this.index.get(node);
  }

  /** A validator reporting every error with the schema node it comes from. */
  verboseValidator(pointer: string): ValidateFunction {
    let fn = this.verbose.get(pointer);
    if (!fn) {
      if (!this.verboseAjv) {
        const options = {
          allErrors: true,
          verbose: true,
          strict: false,
          validateSchema: false,
          addUsedSchema: false,
          logger: false as const,
          coerceTypes: false as const,
          code: { regExp: linearRegExp },
        };
        const ajv = this.registry.dialect === "3.1" ? new Ajv2020(options) : new Ajv(options);
        addOpenApiFormats(ajv);
        useLinearUniqueItems(ajv);
        ajv.addSchema(this.doc, this.registry.uri(this.flavor, "").replace(/#$/, ""));
        this.verboseAjv = ajv;
      }
      try {
        fn = guarded(this.verboseAjv.compile(this.registry.ref(this.flavor, pointer)), `the schema at #${pointer}`);
      } catch {
        fn = this.registry.validatorAt(this.flavor, pointer); // unusable too: it says why
      }
      this.verbose.set(pointer, fn);
    }
    return fn;
  }

  /** Whether a value is valid for a schema node (by the registry's own validators when the node has a pointer). */
  validFor(node: unknown, value: unknown): boolean {
    if (node === true || (isObject(node) && Object.keys(node).length === 0)) return value !== undefined;
    if (!isObject(node)) return false;
    const pointer = this.pointerOf(node);
    if (pointer === undefined) return false;
    try {
      return this.registry.validatorAt(this.flavor, pointer)(value) === true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ compiled generators (their host)

  nodeAt(pointer: string): unknown {
    return getAt(this.doc, pointer);
  }

  validAt(pointer: string, value: unknown): boolean {
    try {
      return this.registry.validatorAt(this.flavor, pointer)(value) === true;
    } catch {
      return false;
    }
  }

  usableExamples(node: Json, pointer: string): readonly unknown[] {
    let hit = this.usable.get(node);
    if (hit === undefined) {
      const examples: unknown[] = [];
      if (Array.isArray(node["examples"])) examples.push(...node["examples"]);
      if (node["example"] !== undefined) examples.push(node["example"]);
      const good = examples.filter((v) => this.exampleFits(node, pointer, v));
      // A default is what the server assumes when the value is left out: used only when there is no example,
      // and not when it is a zero value (0, "", false, empty), which reads worse than a realistic value.
      const dflt = node["default"];
      if (good.length === 0 && dflt !== undefined && !isZeroValue(dflt) && this.exampleFits(node, pointer, dflt)) good.push(dflt);
      hit = good;
      this.usable.set(node, hit);
    }
    return hit;
  }

  general(pointer: string, level: number, names: readonly string[], seed: number, optionals: number): unknown {
    const value = this.jsf(this.prepare(pointer, level), seed, { realistic: true, examples: true, optionals, base: [...names] });
    return detached(value);
  }

  /** A value from the compiled generators, or undefined when the schema's root is left to json-schema-faker. */
  private fast(pointer: string, seed: number, optionals: number, rootName: string | undefined): unknown {
    const gen = this.compiled.root(pointer, rootName);
    if (gen === undefined) return undefined;
    try {
      this.meter.startValue();
      return gen(new GenerationRun(seed, optionals, this.meter));
    } catch (err) {
      rethrowControl(err);
      return undefined;
    }
  }

  // ------------------------------------------------------------ synthesis

  synthesize(pointer: string, options: SynthesizeOptions): Synthesized {
    const budget = options.budget ?? currentBudget();
    const saved = this.meter;
    const meter = new SynthesisMeter(budget, `#${pointer}`);
    this.meter = meter;
    try {
      const result = (budget === undefined ? this.bounded(pointer, options) : budget.section(() => this.bounded(pointer, options))) as Synthesized;
      result.warnings = meter.warnings;
      return result;
    } finally {
      this.meter = saved;
    }
  }

  /**
   * Synthesis within the caps: a schema without any finite value, or a value that grows past `maxSize`, ends
   * in the smallest value the caps allow (cut where recursion cannot end), reported as not valid.
   */
  private bounded(pointer: string, options: SynthesizeOptions): Omit<Synthesized, "warnings"> {
    const root = this.nodeAtCached(pointer);
    const seed = deriveSeed(options.seed >>> 0, pointer);
    if (this.minimalSize(root) === Infinity) {
      this.meter.warn(`the schema at #${pointer} has no finite value (it requires itself at every level, e.g. through a required property or minItems): the value is cut where it recurses`);
      return this.smallest(root, seed, options.name);
    }
    try {
      return this.attempt(pointer, options);
    } catch (err) {
      if (!(err instanceof CapReached)) throw err;
      this.meter.capped("maxSize", `the value at #${pointer} grows larger than that; the smallest value within the caps is used`);
      return this.smallest(root, seed, options.name);
    }
  }

  /** The smallest value of a node within the caps (required properties, minimum lengths, recursion cut with null). */
  private smallest(root: unknown, seed: number, rootName: string | undefined): Omit<Synthesized, "warnings"> {
    this.meter.lenient = true;
    this.meter.startValue();
    const value = this.own(root, deriveSeed(seed, "smallest"), { minimal: true, base: [], rootName, cut: true });
    const valid = this.validFor(root, value);
    return { value: detached(value), valid, repairs: 0 };
  }

  private attempt(pointer: string, options: SynthesizeOptions): Omit<Synthesized, "warnings"> {
    // The pointer is part of the seed: two schemas under one seed do not share their values.
    const seed = deriveSeed(options.seed >>> 0, pointer);
    const optionals = options.optionals ?? 0.75;
    const rootName = options.name;
    const validate = this.registry.validatorAt(this.flavor, pointer);
    if (unusableReason(validate) !== undefined) {
      // The schema does not compile (a broken spec): generate without checking.
      this.meter.startValue();
      const value = this.jsf(this.prepare(pointer, 0), deriveSeed(seed, "jsf"), { realistic: true, examples: true, optionals, base: [], ...(rootName !== undefined ? { rootName } : {}) });
      return { value: detached(value ?? null), valid: false, repairs: 0 };
    }
    // The compiled generators first (values are fresh: nothing to detach); json-schema-faker and repairs when they fail.
    const quick = this.fast(pointer, deriveSeed(seed, "compiled"), optionals, rootName);
    if (quick !== undefined && validate(quick)) return { value: quick, valid: true, repairs: 0 };
    if (quick !== undefined && this.meter.cut) {
      // A cap cut the value: repairs would meet the same cap. The smallest value may leave the cut part out.
      this.meter.startValue();
      const small = this.own(getAt(this.doc, pointer), deriveSeed(seed, "minimal"), { minimal: true, base: [], rootName });
      if (validate(small)) return { value: detached(small), valid: true, repairs: 1 };
      return { value: quick, valid: false, repairs: 0 };
    }
    this.meter.startValue();
    let value = this.jsf(this.prepare(pointer, 0), deriveSeed(seed, "jsf"), { realistic: true, examples: true, optionals, base: [], ...(rootName !== undefined ? { rootName } : {}) });
    if (value === undefined) {
      this.meter.startValue();
      value = this.own(getAt(this.doc, pointer), deriveSeed(seed, "own"), { minimal: false, base: [], rootName });
    }
    if (validate(value)) return { value: detached(value), valid: true, repairs: 0 };

    let repairs = 0;
    const verbose = this.verboseValidator(pointer);
    let fewest = Infinity;
    let stale = 0;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      if (verbose(value)) break;
      const errors = verbose.errors ?? [];
      // No progress for two rounds: the rest is likely unsatisfiable; leave it to the last resort.
      if (errors.length < fewest) {
        fewest = errors.length;
        stale = 0;
      } else if (++stale >= 2) break;
      const fixed = this.repairs.repair(value, errors, deriveSeed(seed, "repair", round), round, rootName);
      value = fixed.value;
      repairs += fixed.repairs;
      if (validate(value)) return { value: detached(value), valid: true, repairs };
      if (fixed.repairs === 0) break;
    }
    // Last resort: generators of our own, from the schema as a whole.
    const root = getAt(this.doc, pointer);
    for (let attempt = 0; attempt < 6; attempt++) {
      this.meter.startValue();
      const candidate = this.own(root, deriveSeed(seed, "fallback", attempt), { minimal: attempt % 2 === 1, base: [], rootName, branch: Math.floor(attempt / 2) });
      if (validate(candidate)) return { value: detached(candidate), valid: true, repairs: repairs + 1 };
    }
    return { value: detached(value), valid: false, repairs };
  }

  // ------------------------------------------------------------ repair

  // ------------------------------------------------------------ own generator

  /** A value from a schema node by the own generator (used for repairs and as the last resort). */
  own(node: unknown, seed: number, options: OwnOptions): unknown {
    return ownValue(this, node, seed, options);
  }
}

/** A copy that shares nothing with the schema (examples, enums and consts are picked by reference). */
function detached(value: unknown): unknown {
  return cloneJson(value);
}

const synthesizers = new WeakMap<SchemaRegistry, Map<SchemaFlavor, Synthesizer>>();

function synthesizerOf(registry: SchemaRegistry, flavor: SchemaFlavor): Synthesizer {
  let byFlavor = synthesizers.get(registry);
  if (!byFlavor) {
    byFlavor = new Map();
    synthesizers.set(registry, byFlavor);
  }
  let s = byFlavor.get(flavor);
  if (!s) {
    s = new Synthesizer(registry, flavor);
    byFlavor.set(flavor, s);
  }
  return s;
}

/**
 * Synthesizes a value for the schema at a pointer of a spec, seeded, with realistic values by field name and
 * valid examples: generators compiled once per schema node first (json-schema-faker for the shapes they
 * leave to it), always validated against the schema; when that value fails, json-schema-faker on the whole
 * schema, repaired until valid (bounded rounds, then generators of our own). Same registry, pointer and seed
 * -> the same value.
 */
export function synthesize(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string, options: SynthesizeOptions): Synthesized {
  return synthesizerOf(registry, flavor).synthesize(pointer, options);
}
