/**
 * Per-object memoization for the pure screen model: a value derived from one tree (or one analysis of
 * it) is built once and forgotten with the object (WeakMap, so nothing is kept alive). The object must
 * not change after the first call; trees and analyses never do.
 */
export function memoizedBy<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}
