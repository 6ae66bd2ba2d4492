/**
 * Identity memos for values derived from immutable objects (timeline entries, the blocks and messages built
 * from them, tool definitions). Assembly and compaction run every turn over a conversation that only grows,
 * so almost everything they derive is the same as last turn's; remembering it by source identity keeps a
 * turn's cost close to the size of what is new. Entries are never mutated (docs/INVARIANTS.md #1), which is what
 * makes this sound; a memo is invisible to callers (same input, same output) and is dropped with its source
 * by the GC. Not part of the public entry: import it from this file.
 */

/** `derive`, made once per source object: later calls with the same object return the first result. */
export function memoizeByObject<Source extends object, Value>(
  derive: (source: Source) => Value,
): (source: Source) => Value {
  const cache = new WeakMap<Source, Value>();
  return (source) => {
    const hit = cache.get(source);
    // `has` only when the value may be a remembered `undefined`.
    if (hit !== undefined || cache.has(source)) return hit as Value;
    const value = derive(source);
    cache.set(source, value);
    return value;
  };
}

/** Like `memoizeByObject`, for values that also depend on a string `key`: a different key makes it again. */
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
