/** Indexes of sets by key (listenKeys by account, connections by listenKey): a key is present only while its set is not empty. */

/** The set under `key`, made empty and indexed when there is none. */
export function setOf<K, V>(index: Map<K, Set<V>>, key: K): Set<V> {
  let set = index.get(key);
  if (set === undefined) {
    set = new Set();
    index.set(key, set);
  }
  return set;
}

/** Takes `value` out of the set under `key`, and the key out of the index once its set is empty. */
export function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}
