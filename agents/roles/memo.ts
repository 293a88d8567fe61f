/**
 * A bounded memo for pure functions: at most about `2 * limit` entries, least recently used ones forgotten first
 * (two generations: a full young generation becomes the old one, and the old one is dropped). For caches whose
 * keys are texts of one dialogue: they help within an episode and must not grow over a run of thousands.
 */
export class Memo<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const old = this.old.get(key);
    if (old !== undefined) {
      this.old.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** The value of a key, computed and remembered when missing. */
  getOrCompute(key: K, compute: (key: K) => V): V {
    let v = this.get(key);
    if (v === undefined) {
      v = compute(key);
      this.set(key, v);
    }
    return v;
  }

  /** Entries held (for tests and memory checks). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
