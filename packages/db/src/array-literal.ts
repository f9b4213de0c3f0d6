/**
 * A JavaScript array as PostgreSQL's array literal (`{1,NULL,"a b"}`), for a `$n::type[]`
 * parameter. node-postgres encodes arrays itself, but quotes and escapes every element with two
 * regular expressions, numbers included: for the worker's bulk reads and writes (tens of
 * thousands of elements a cycle) that showed in profiles. Numbers and booleans go in as they
 * are, strings quoted (their quotes and backslashes escaped, when they have any), null as NULL.
 * Anything else (nested arrays, dates, buffers) is left to node-postgres: the array is returned
 * unchanged.
 *
 * An element equal to the one before it reuses its text: the worker's columns repeat (one
 * organisation, one instant, a few states for thousands of rows), and formatting an instant in
 * milliseconds costs more than the comparison. With that and the escape only where needed, the
 * 3 000-job bench's arrays (about 80 000 elements a cycle) took 28 ms of its CPU profile over six
 * cycles instead of 76.
 */
export function arrayLiteral(values: readonly unknown[]): string | readonly unknown[] {
  // The elements' texts joined once: appending each to a string makes a rope of thousands of
  // pieces, which V8 copies flat again before the driver can write it.
  const elements = new Array<string>(values.length);
  let previous: unknown;
  let previousText = "";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0 && v === previous) {
      elements[i] = previousText;
      continue;
    }
    let element: string;
    if (v === null || v === undefined) element = "NULL";
    else if (typeof v === "number") element = Number.isNaN(v) ? "NaN" : String(v);
    else if (typeof v === "boolean") element = v ? "t" : "f";
    else if (typeof v === "string") element = NEEDS_ESCAPE.test(v) ? `"${v.replace(/[\\"]/g, "\\$&")}"` : `"${v}"`;
    else return values;
    elements[i] = element;
    previous = v;
    previousText = element;
  }
  return `{${elements.join(",")}}`;
}

const NEEDS_ESCAPE = /[\\"]/;
