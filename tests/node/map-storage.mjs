// A Web Storage over a Map (what `localStorage` offers), for the journal's tests.
export class MapStorage {
  #items = new Map();
  get length() {
    return this.#items.size;
  }
  key(i) {
    return [...this.#items.keys()][i] ?? null;
  }
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
  /** Every key, for the tests' checks. */
  keys() {
    return [...this.#items.keys()];
  }
}

/**
 * Watches `storage`'s methods: each call's name goes into the returned
 * list, and `failing` throws `new Error(words)` instead of running.
 */
export function watchStorage(storage, failing, words) {
  const touched = [];
  for (const name of ["setItem", "removeItem", "key", "getItem"]) {
    const own = storage[name].bind(storage);
    storage[name] = (...a) => {
      touched.push(name);
      if (name === failing) throw new Error(words);
      return own(...a);
    };
  }
  return touched;
}
