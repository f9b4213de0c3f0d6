/**
 * A JavaScript array as PostgreSQL's array literal (`{1,NULL,"a b"}`), for a `$n::type[]`
 * parameter. node-postgres encodes arrays itself, but quotes and escapes every element with two
 * regular expressions, numbers included: for the worker's bulk reads and writes (tens of
 * thousands of elements a cycle) that showed in profiles. Numbers and booleans go in as they
 * are, strings quoted with their quotes and backslashes escaped, null as NULL. Anything else
 * (nested arrays, dates, buffers) is left to node-postgres: the array is returned unchanged.
 */
export function arrayLiteral(values: readonly unknown[]): string | readonly unknown[] {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = "NULL";
    else if (typeof v === "number") parts[i] = Number.isNaN(v) ? "NaN" : String(v);
    else if (typeof v === "boolean") parts[i] = v ? "t" : "f";
    else if (typeof v === "string") parts[i] = `"${v.replace(/[\\"]/g, "\\$&")}"`;
    else return values;
  }
  return `{${parts.join(",")}}`;
}
