import type { AgentCheck } from "@tidemark/protocol";
import { canonicalJson } from "./canonical.ts";

export interface ChangedCheck {
  id: string;
  /** Which parts differ: url, schedules, timeoutMs, or items (added, removed or changed). */
  fields: string[];
  itemsAdded: string[];
  itemsRemoved: string[];
  itemsChanged: string[];
}

export interface ChecksDiff {
  added: string[];
  removed: string[];
  changed: ChangedCheck[];
  unchanged: number;
}

const FIELDS = ["url", "schedules", "timeoutMs"] as const;

/** What changes for an agent going from `before` (null: it runs nothing yet) to `after`, per check. */
export function diffChecks(before: readonly AgentCheck[] | null, after: readonly AgentCheck[]): ChecksDiff {
  const old = new Map((before ?? []).map((c) => [c.id, c]));
  const next = new Map(after.map((c) => [c.id, c]));
  const diff: ChecksDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [id, check] of next) {
    const previous = old.get(id);
    if (!previous) {
      diff.added.push(id);
      continue;
    }
    const fields: string[] = FIELDS.filter((f) => canonicalJson(previous[f]) !== canonicalJson(check[f]));
    const oldItems = new Map(previous.items.map((i) => [i.name, i]));
    const newItems = new Map(check.items.map((i) => [i.name, i]));
    const itemsAdded = [...newItems.keys()].filter((n) => !oldItems.has(n));
    const itemsRemoved = [...oldItems.keys()].filter((n) => !newItems.has(n));
    const itemsChanged = [...newItems.entries()]
      .filter(([n, i]) => oldItems.has(n) && canonicalJson(oldItems.get(n)) !== canonicalJson(i))
      .map(([n]) => n);
    if (itemsAdded.length || itemsRemoved.length || itemsChanged.length) fields.push("items");
    if (fields.length) diff.changed.push({ id, fields, itemsAdded, itemsRemoved, itemsChanged });
    else diff.unchanged++;
  }
  for (const id of old.keys()) if (!next.has(id)) diff.removed.push(id);
  diff.added.sort();
  diff.removed.sort();
  return diff;
}
