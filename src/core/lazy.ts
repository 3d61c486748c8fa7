/**
 * Lookup tables built on first use, one per key, and never replaced: the one kind of
 * module-level state core/ and search/ may hold (scripts/check-deps.mjs forbids the rest).
 * An entry must be a pure function of its key, so that no caller can tell whether it was just
 * built, loaded or cached; the pattern tables and board geometries are such tables, and
 * building them again for every board would cost tens of milliseconds each.
 */
export interface LazyTables<K, V> {
  /** The entry for `key`, built (or loaded) the first time it is asked for. */
  get(key: K): V;
  /**
   * Let `load` supply entries not built yet (a saved copy of the same content, sooner), or stop
   * (undefined). Installed by the process layer (src/workers/tables.ts); entries already made
   * stay as they are.
   */
  setLoader(load: ((key: K) => V | undefined) | undefined): void;
}

export function lazyTables<K, V>(build: (key: K) => V): LazyTables<K, V> {
  const made = new Map<K, V>();
  let load: ((key: K) => V | undefined) | undefined;
  return {
    get(key: K): V {
      let v = made.get(key);
      if (v === undefined) {
        v = load?.(key) ?? build(key);
        made.set(key, v);
      }
      return v;
    },
    setLoader(l) {
      load = l;
    },
  };
}
