/**
 * Identity memo for values derived from immutable objects (timeline entries and the blocks built from them).
 * Assembly runs every turn over a conversation that only grows, so almost every block it builds is the same
 * as last turn's; remembering derived blocks and their JSON by source identity keeps a turn's cost close to
 * the size of what is new. Entries are never mutated (DESIGN invariant 1), which is what makes this sound;
 * the memo is invisible to callers (same input, same output) and is dropped with its source by the GC.
 */
export class DerivedCache<Source extends object, Value> {
  private readonly cache = new WeakMap<Source, { key: string; value: Value }>();

  /** The value derived from `source` under `key`, made once by `make`. */
  get(source: Source, key: string, make: () => Value): Value {
    const hit = this.cache.get(source);
    if (hit !== undefined && hit.key === key) return hit.value;
    const value = make();
    this.cache.set(source, { key, value });
    return value;
  }
}
