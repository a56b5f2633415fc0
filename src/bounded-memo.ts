/**
 * `compute` remembered by key, the memo started over once it holds `capacity` entries: a burst
 * of distinct keys costs computing again, never unbounded memory. What `compute` throws is not kept.
 */
export function boundedMemo<K, V>(capacity: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= capacity) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
