/**
 * Parses JSON texts so that equal texts give one shared, deeply frozen value. A fleet's items
 * mostly share a handful of threshold policies (Bischeck's `$$HOSTNAME$$` macros exist for that),
 * and a policy parsed per item cost the worker about 4.5 KB an item: 24 hour entries, their
 * expression strings, and the compiled entries the thresholds package caches per period object
 * (issue 22: 135 of the worker's 339 MB of live heap at 30 000 jobs). Frozen, because one item
 * changing its copy would change every item's.
 */
export function sharedJsonParser<T>(): (text: string | null) => T | null {
  const seen = new Map<string, T>();
  return (text) => {
    if (text === null) return null;
    let value = seen.get(text);
    if (value === undefined) {
      value = deepFreeze(JSON.parse(text) as T);
      seen.set(text, value);
    }
    return value;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
