import { cloneJson } from "../synthesize/synthesis-rules.js";
/** One collection of resources in the simulated state. */
interface Collection {
  /** The items by id (a Map: reads, writes and deletes by id take constant time at any size). */
  items: Map<string, Record<string, unknown>>;
  /** The field holding each item's id. */
  idField: string;
  /** True once the collection's content is known (fixtures): missing items are then 404. */
  authoritative: boolean;
  /** Ids deleted in this episode: they stay gone. */
  deleted: Set<string>;
  /** Ids of items invented by a read (open world), oldest first: the first to go when the store is full. */
  invented: Set<string>;
  /** The largest integer id the collection has or had (ids are not reused). */
  maxNumeric: number;
  /** The largest number of each string id shape (`rem-` + digits + ``), for new ids that come after the others. */
  shapes: Map<string, bigint>;
}

/** Initial state: a collection path (`/books`, `/users/7/posts`) -> its resources. */
export type Fixtures = Record<string, ReadonlyArray<Record<string, unknown>>>;

/** Limits of a store (defaults that real use never meets; a hostile client does). */
export interface StoreLimits {
  /** Most items over all collections (default 10,000): a create beyond it is refused, after invented items are dropped. */
  maxItems?: number;
  /** Most items invented by reads of unknown ids (default 256): the oldest is dropped first. */
  maxInvented?: number;
  /** Most records remembered from answers that no collection holds (default 1,000): the oldest is forgotten first. */
  maxObserved?: number;
}

const ID_FIELDS = ["id", "uuid", "key", "code", "slug"];
const NUMBERED = /^(.*?)(\d+)(\D*)$/;

/** Guesses which field of a resource holds its id: an explicit hint, `id`, `<singular>Id`, or a field ending in `id`. */
export function guessIdField(item: Record<string, unknown>, hints: readonly string[] = []): string {
  const keys = Object.keys(item);
  for (const h of hints) if (keys.includes(h)) return h;
  for (const f of ID_FIELDS) if (keys.includes(f)) return f;
  const idLike = keys.find((k) => /(^|_)id$|[a-z]Id$/.test(k));
  return idLike ?? hints[0] ?? "id";
}

/** The shape of a string id (`rem-2004` -> `rem-\u0000`), and its number, if it has one. */
export function idShape(id: string): { shape: string; n: bigint } | undefined {
  const m = NUMBERED.exec(id);
  if (!m) return undefined;
  return { shape: `${m[1] ?? ""}\u0000${m[3] ?? ""}`, n: BigInt(m[2] ?? "0") };
}

/**
 * The simulated state of one episode (or one serve session): collections of resources keyed by
 * concrete collection path, indexed by id. Created, read, updated and deleted by the state responder.
 * Bounded: creates beyond `maxItems` are refused (`full()`), records invented by reads and remembered from
 * answers are capped and dropped oldest first.
 */
export class ResourceStore {
  private readonly collections = new Map<string, Collection>();
  /** `noun \u0000 id` -> a record some answer showed (a search result, a nested object), oldest first. */
  private readonly observedRecords = new Map<string, Record<string, unknown>>();
  private size = 0;
  private inventedCount = 0;
  readonly limits: Required<StoreLimits>;

  constructor(limits: StoreLimits = {}) {
    this.limits = { maxItems: limits.maxItems ?? 10_000, maxInvented: limits.maxInvented ?? 256, maxObserved: limits.maxObserved ?? 1_000 };
  }

  /** A store holding fixtures (deep-copied); their collections are authoritative. */
  static fromFixtures(fixtures: Fixtures = {}, limits: StoreLimits = {}): ResourceStore {
    const store = new ResourceStore(limits);
    for (const [path, items] of Object.entries(fixtures)) {
      const key = normalizeKey(path);
      const first = items[0];
      const collection = store.ensure(key, first ? guessIdField(first) : "id");
      collection.authoritative = true;
      for (const item of items) {
        const id = item[collection.idField];
        if (id !== undefined && id !== null) store.put(key, String(id), item, collection.idField);
      }
    }
    return store;
  }

  /** The collection at a path, created empty (and not authoritative) if new. */
  ensure(key: string, idField: string): Collection {
    const k = normalizeKey(key);
    let c = this.collections.get(k);
    if (!c) {
      c = { items: new Map(), idField, authoritative: false, deleted: new Set(), invented: new Set(), maxNumeric: 0, shapes: new Map() };
      this.collections.set(k, c);
    }
    return c;
  }

  /** Whether a collection exists in the state. */
  has(key: string): boolean {
    return this.collections.has(normalizeKey(key));
  }

  /** Whether the store holds nothing: no collection and no observed record (a fresh store). */
  get isBlank(): boolean {
    return this.collections.size === 0 && this.observedRecords.size === 0;
  }

  /** The paths of the collections in the state. */
  keys(): string[] {
    return [...this.collections.keys()];
  }

  /** The collection at a path, if any. */
  collection(key: string): Readonly<Collection> | undefined {
    return this.collections.get(normalizeKey(key));
  }

  /** How many items the store holds over all collections. */
  get itemCount(): number {
    return this.size;
  }

  /** Whether a new item would exceed `maxItems` once invented items are dropped. */
  full(): boolean {
    return this.size - this.inventedCount >= this.limits.maxItems;
  }

  /** The items of a collection (in insertion order). */
  list(key: string): Record<string, unknown>[] {
    return [...(this.collections.get(normalizeKey(key))?.items.values() ?? [])];
  }

  /** How many items a collection holds. */
  count(key: string): number {
    return this.collections.get(normalizeKey(key))?.items.size ?? 0;
  }

  get(key: string, id: string): Record<string, unknown> | undefined {
    return this.collections.get(normalizeKey(key))?.items.get(id);
  }

  /**
   * Stores a copy of an item (a new one or a new version). The copy is built key by key, so that the items of a
   * collection share V8's hidden classes: an answer body that had fields deleted on its way (omitted optional
   * fields) would keep a hidden class of its own, about 1 KB per item held for the life of the session.
   * An item `invented` by a read counts against `maxInvented`
   * (the oldest invented item goes first); any other new item may push out invented ones when the store is
   * full. Returns false when the store is full of items that cannot go (the caller answers so).
   */
  put(key: string, id: string, item: Record<string, unknown>, idField: string, options: { invented?: boolean } = {}): boolean {
    const c = this.ensure(key, idField);
    const isNew = !c.items.has(id);
    if (isNew) {
      if (options.invented === true && this.inventedCount >= this.limits.maxInvented) this.dropInvented();
      while (this.size >= this.limits.maxItems && this.inventedCount > 0) this.dropInvented();
      if (this.size >= this.limits.maxItems) return false;
    }
    c.deleted.delete(id);
    if (c.invented.has(id) && options.invented !== true) {
      c.invented.delete(id);
      this.inventedCount--;
    }
    c.items.set(id, cloneJson(item));
    if (isNew) {
      this.size++;
      if (options.invented === true) {
        c.invented.add(id);
        this.inventedCount++;
      }
    }
    this.noteId(c, id);
    return true;
  }

  private noteId(c: Collection, id: string): void {
    const n = Number(id);
    if (Number.isInteger(n) && n > c.maxNumeric) c.maxNumeric = n;
    const shape = idShape(id);
    if (shape) {
      const max = c.shapes.get(shape.shape);
      if (max === undefined || shape.n > max) c.shapes.set(shape.shape, shape.n);
    }
  }

  /** Drops the oldest invented item of the store (a later read invents it again, from the same seed). */
  private dropInvented(): void {
    for (const c of this.collections.values()) {
      const oldest = c.invented.values().next();
      if (oldest.done === true) continue;
      c.invented.delete(oldest.value);
      if (c.items.delete(oldest.value)) this.size--;
      this.inventedCount--;
      return;
    }
    this.inventedCount = 0;
  }

  /** Removes an item; it stays gone (a later read is a 404). Returns whether it existed. */
  delete(key: string, id: string, idField: string): boolean {
    const c = this.ensure(key, idField);
    c.deleted.add(id);
    this.noteId(c, id);
    if (c.invented.delete(id)) this.inventedCount--;
    const existed = c.items.delete(id);
    if (existed) this.size--;
    return existed;
  }

  /** Whether an item was deleted in this episode. */
  isDeleted(key: string, id: string): boolean {
    return this.collections.get(normalizeKey(key))?.deleted.has(id) ?? false;
  }

  /** Marks a collection as fully known: from now on a missing item is a 404. */
  markAuthoritative(key: string, idField: string): void {
    this.ensure(key, idField).authoritative = true;
  }

  /** The resource of a singleton path (`/me`): the one item kept at that path (from fixtures: the first). */
  singleton(key: string): Record<string, unknown> | undefined {
    return this.collections.get(normalizeKey(key))?.items.values().next().value;
  }

  /** Keeps a singleton path's resource, replacing the one it had. */
  putSingleton(key: string, item: Record<string, unknown>): void {
    const c = this.ensure(key, "id");
    const first = c.items.keys().next();
    const id = first.done === true ? "" : first.value;
    this.size -= c.items.size;
    c.items.clear();
    c.items.set(id, cloneJson(item));
    this.size++;
  }

  /** Every id a collection has or had: its items' and the deleted ones (ids are not reused). */
  knownIds(key: string): ReadonlySet<string> {
    const c = this.collections.get(normalizeKey(key));
    if (!c) return new Set();
    if (c.deleted.size === 0) return new Set(c.items.keys());
    return new Set([...c.items.keys(), ...c.deleted]);
  }

  /** Whether a collection has or had an id. */
  hasId(key: string, id: string): boolean {
    const c = this.collections.get(normalizeKey(key));
    return c !== undefined && (c.items.has(id) || c.deleted.has(id));
  }

  /** The largest number a collection's ids of a shape had (`rem-` + digits), for a new id after it. */
  maxOfShape(key: string, prefix: string, suffix: string): bigint | undefined {
    return this.collections.get(normalizeKey(key))?.shapes.get(`${prefix}\u0000${suffix}`);
  }

  /** The next integer id of a collection (one above the largest numeric id, deleted ones included: ids are not reused). */
  nextNumericId(key: string): number {
    return (this.collections.get(normalizeKey(key))?.maxNumeric ?? 0) + 1;
  }

  /** Remembers a record an answer showed (a search result, an object inside another), by its noun and id. */
  observe(noun: string, id: string, record: Record<string, unknown>): void {
    const k = `${noun}\u0000${id}`;
    const prior = this.observedRecords.get(k);
    this.observedRecords.delete(k);
    this.observedRecords.set(k, prior ? { ...prior, ...record } : record);
    if (this.observedRecords.size > this.limits.maxObserved) {
      const oldest = this.observedRecords.keys().next();
      if (oldest.done !== true) this.observedRecords.delete(oldest.value);
    }
  }

  /** A record an earlier answer showed, by its noun and id. */
  observed(noun: string, id: string): Record<string, unknown> | undefined {
    return this.observedRecords.get(`${noun}\u0000${id}`);
  }

  /** A deep copy of the whole state, as fixtures (for inspection, journals and forks). */
  snapshot(): Record<string, Record<string, unknown>[]> {
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [key, c] of [...this.collections.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      out[key] = [...c.items.values()].map((i) => cloneJson(i));
    }
    return out;
  }

  /** An independent copy of this store. */
  clone(): ResourceStore {
    const copy = new ResourceStore(this.limits);
    for (const [key, c] of this.collections) {
      copy.collections.set(key, {
        idField: c.idField,
        authoritative: c.authoritative,
        deleted: new Set(c.deleted),
        invented: new Set(c.invented),
        maxNumeric: c.maxNumeric,
        shapes: new Map(c.shapes),
        items: new Map([...c.items].map(([id, item]) => [id, cloneJson(item)])),
      });
    }
    copy.size = this.size;
    copy.inventedCount = this.inventedCount;
    for (const [k, v] of this.observedRecords) copy.observedRecords.set(k, cloneJson(v));
    return copy;
  }
}

function normalizeKey(path: string): string {
  const p = path.startsWith("/") ? path : `/${path}`;
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
