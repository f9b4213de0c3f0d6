/**
 * Text PostgreSQL can store: no NUL character (its text type refuses it) and no lone UTF-16
 * surrogate (it cannot be encoded as UTF-8). JSON lets a client send both (`\u0000`, `\ud800`),
 * so every boundary checks strings with these before they reach the database.
 */

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableTextReason(text: string): string | null {
  if (text.includes(NUL)) return "contains a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "contains a lone UTF-16 surrogate (not valid Unicode)";
  return null;
}

export interface UnstorableText {
  /** Where the string is: object keys and array indexes from the root. */
  path: (string | number)[];
  reason: string;
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The first string (value or object key) anywhere in `value` that cannot be stored, or null.
 * Walks with its own stack (paths linked to their parents), so a deeply nested body can neither
 * overflow the call stack nor cost more than its size.
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === "string") {
      const reason = unstorableTextReason(current);
      if (reason) return { path: pathOf(visit), reason };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], key: i, parent: visit });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const reason = unstorableTextReason(key);
        if (reason) return { path: [...pathOf(visit), key], reason: `its name ${reason}` };
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return null;
}
