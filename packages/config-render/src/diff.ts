import type { AgentCheck } from "@tidemark/protocol";
import { canonicalJson } from "./canonical.ts";

/**
 * One difference, old → new, written out for a person: `before` null means the thing did not
 * exist before (added), `after` null that it no longer exists (removed).
 */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

export interface ItemChange {
  name: string;
  change: "added" | "removed" | "changed";
  fields: FieldChange[];
}

export interface CheckChange {
  id: string;
  change: "added" | "removed" | "changed";
  /** url, schedules, timeout: old → new. */
  fields: FieldChange[];
  /** The check's items and their commands: old → new. */
  items: ItemChange[];
}

export interface ChecksDiff {
  changes: CheckChange[];
  unchanged: number;
}

/** Collects old → new pairs, skipping those that render the same. */
export class ChangeList {
  readonly fields: FieldChange[] = [];
  add(field: string, before: string | null, after: string | null): this {
    if (before !== after) this.fields.push({ field, before, after });
    return this;
  }
}

type CheckFields = Pick<AgentCheck, "url" | "schedules" | "timeoutMs">;
type CheckItem = AgentCheck["items"][number];

function checkFields(before: CheckFields | undefined, after: CheckFields | undefined): FieldChange[] {
  return new ChangeList()
    .add("url", before?.url ?? null, after?.url ?? null)
    .add("schedules", before ? before.schedules.join(", ") : null, after ? after.schedules.join(", ") : null)
    .add("timeout", before ? `${before.timeoutMs} ms` : null, after ? `${after.timeoutMs} ms` : null).fields;
}

function itemFields(before: CheckItem | undefined, after: CheckItem | undefined): FieldChange[] {
  return new ChangeList().add("command", before?.exec ?? null, after?.exec ?? null).add("series", before?.key ?? null, after?.key ?? null)
    .fields;
}

/** Added, removed and changed entries of two keyed lists, in a stable order (new order, then removed ones). */
export function pairUp<T>(before: readonly T[], after: readonly T[], key: (v: T) => string): { key: string; before?: T; after?: T }[] {
  const old = new Map(before.map((v) => [key(v), v]));
  const next = new Map(after.map((v) => [key(v), v]));
  const out: { key: string; before?: T; after?: T }[] = [];
  for (const [k, v] of next) out.push({ key: k, before: old.get(k), after: v });
  for (const [k, v] of old) if (!next.has(k)) out.push({ key: k, before: v });
  return out;
}

const changeKind = (before: unknown, after: unknown) => (before === undefined ? "added" : after === undefined ? "removed" : "changed");

/**
 * What changes for an agent going from `before` (null: it runs nothing yet) to `after`: per
 * check, every field and every item's command as old → new.
 */
export function diffChecks(before: readonly AgentCheck[] | null, after: readonly AgentCheck[]): ChecksDiff {
  const diff: ChecksDiff = { changes: [], unchanged: 0 };
  for (const pair of pairUp(before ?? [], after, (c) => c.id)) {
    if (pair.before && pair.after && canonicalJson(pair.before) === canonicalJson(pair.after)) {
      diff.unchanged++;
      continue;
    }
    const items: ItemChange[] = [];
    for (const item of pairUp(pair.before?.items ?? [], pair.after?.items ?? [], (i) => i.name)) {
      const fields = itemFields(item.before, item.after);
      if (fields.length) items.push({ name: item.key, change: changeKind(item.before, item.after), fields });
    }
    diff.changes.push({ id: pair.key, change: changeKind(pair.before, pair.after), fields: checkFields(pair.before, pair.after), items });
  }
  diff.changes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return diff;
}
