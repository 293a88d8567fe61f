/** One collection of resources in the simulated state. */
interface Collection {
  items: Map<string, Record<string, unknown>>;
  /** The field holding each item's id. */
  idField: string;
  /** True once the collection's content is known (fixtures): missing items are then 404. */
  authoritative: boolean;
  /** Ids deleted in this episode: they stay gone. */
  deleted: Set<string>;
}

/** Initial state: a collection path (`/books`, `/users/7/posts`) -> its resources. */
export type Fixtures = Record<string, ReadonlyArray<Record<string, unknown>>>;

const ID_FIELDS = ["id", "uuid", "key", "code", "slug"];

/** Guesses which field of a resource holds its id: an explicit hint, `id`, `<singular>Id`, or a field ending in `id`. */
export function guessIdField(item: Record<string, unknown>, hints: readonly string[] = []): string {
  const keys = Object.keys(item);
  for (const h of hints) if (keys.includes(h)) return h;
  for (const f of ID_FIELDS) if (keys.includes(f)) return f;
  const idLike = keys.find((k) => /(^|_)id$|[a-z]Id$/.test(k));
  return idLike ?? hints[0] ?? "id";
}

/**
 * The simulated state of one episode (or one serve session): collections of resources keyed by
 * concrete collection path. Created, read, updated and deleted by the state responder.
 */
export class ResourceStore {
  private readonly collections = new Map<string, Collection>();

  /** A store holding fixtures (deep-copied); their collections are authoritative. */
  static fromFixtures(fixtures: Fixtures = {}): ResourceStore {
    const store = new ResourceStore();
    for (const [path, items] of Object.entries(fixtures)) {
      const key = normalizeKey(path);
      const first = items[0];
      const collection = store.ensure(key, first ? guessIdField(first) : "id");
      collection.authoritative = true;
      for (const item of items) {
        const id = item[collection.idField];
        if (id !== undefined && id !== null) collection.items.set(String(id), structuredClone(item));
      }
    }
    return store;
  }

  /** The collection at a path, created empty (and not authoritative) if new. */
  ensure(key: string, idField: string): Collection {
    const k = normalizeKey(key);
    let c = this.collections.get(k);
    if (!c) {
      c = { items: new Map(), idField, authoritative: false, deleted: new Set() };
      this.collections.set(k, c);
    }
    return c;
  }

  /** Whether a collection exists in the state. */
  has(key: string): boolean {
    return this.collections.has(normalizeKey(key));
  }

  /** The paths of the collections in the state. */
  keys(): string[] {
    return [...this.collections.keys()];
  }

  /** The collection at a path, if any. */
  collection(key: string): Readonly<Collection> | undefined {
    return this.collections.get(normalizeKey(key));
  }

  /** The items of a collection (in insertion order). */
  list(key: string): Record<string, unknown>[] {
    return [...(this.collections.get(normalizeKey(key))?.items.values() ?? [])];
  }

  get(key: string, id: string): Record<string, unknown> | undefined {
    return this.collections.get(normalizeKey(key))?.items.get(id);
  }

  put(key: string, id: string, item: Record<string, unknown>, idField: string): void {
    const c = this.ensure(key, idField);
    c.deleted.delete(id);
    c.items.set(id, item);
  }

  /** Removes an item; it stays gone (a later read is a 404). Returns whether it existed. */
  delete(key: string, id: string, idField: string): boolean {
    const c = this.ensure(key, idField);
    c.deleted.add(id);
    return c.items.delete(id);
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
    return this.list(key)[0];
  }

  /** Keeps a singleton path's resource, replacing the one it had. */
  putSingleton(key: string, item: Record<string, unknown>): void {
    const c = this.ensure(key, "id");
    const first = c.items.keys().next();
    const id = first.done === true ? "" : first.value;
    c.items.clear();
    c.items.set(id, item);
  }

  /** Every id a collection has or had: its items' and the deleted ones (ids are not reused). */
  knownIds(key: string): string[] {
    const c = this.collections.get(normalizeKey(key));
    return c ? [...c.items.keys(), ...c.deleted] : [];
  }

  /** The next integer id of a collection (one above the largest numeric id, deleted ones included: ids are not reused). */
  nextNumericId(key: string): number {
    let max = 0;
    const c = this.collections.get(normalizeKey(key));
    for (const id of [...(c?.items.keys() ?? []), ...(c?.deleted ?? [])]) {
      const n = Number(id);
      if (Number.isInteger(n) && n > max) max = n;
    }
    return max + 1;
  }

  /** A deep copy of the whole state, as fixtures (for inspection, journals and forks). */
  snapshot(): Record<string, Record<string, unknown>[]> {
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [key, c] of [...this.collections.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      out[key] = [...c.items.values()].map((i) => structuredClone(i));
    }
    return out;
  }

  /** An independent copy of this store. */
  clone(): ResourceStore {
    const copy = new ResourceStore();
    for (const [key, c] of this.collections) {
      copy.collections.set(key, {
        idField: c.idField,
        authoritative: c.authoritative,
        deleted: new Set(c.deleted),
        items: new Map([...c.items].map(([id, item]) => [id, structuredClone(item)])),
      });
    }
    return copy;
  }
}

function normalizeKey(path: string): string {
  const p = path.startsWith("/") ? path : `/${path}`;
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
