import { compiled, type Macros, references } from "@tidemark/expr";
import type { ThresholdPolicy } from "@tidemark/thresholds";

/** How much of a series' history an evaluation may read: newest points, and how far back in time. */
export interface HistoryNeed {
  count: number;
  lookbackMs: number;
  /** `[-24H:END]`: everything the window holds. */
  toOldest: boolean;
  /** Expected spacing of the series' points, when its schedule tells it; sizes time look-backs. */
  intervalMs?: number | null;
}

export type HistoryNeeds = Map<string, HistoryNeed>;

export function mergeNeed(needs: HistoryNeeds, key: string, need: Partial<HistoryNeed>): void {
  const seen = needs.get(key) ?? { count: 1, lookbackMs: 0, toOldest: false };
  needs.set(key, {
    count: Math.max(seen.count, need.count ?? 0),
    lookbackMs: Math.max(seen.lookbackMs, need.lookbackMs ?? 0),
    toOldest: seen.toOldest || (need.toOldest ?? false),
    intervalMs: need.intervalMs ?? seen.intervalMs ?? null,
  });
}

/** What the expressions of a source read, by series key; sources that do not parse read nothing. */
export function sourceNeeds(source: string, macros: Macros, into: HistoryNeeds = new Map()): HistoryNeeds {
  let refs: ReturnType<typeof references>;
  try {
    // compiled() caches the parse by source text; one source often serves thousands of items.
    refs = references(compiled(source).ast, { macros });
  } catch {
    return into;
  }
  for (const r of refs) {
    switch (r.kind) {
      case "index":
        mergeNeed(into, r.series, { count: Math.max(...r.indices) + 1 });
        break;
      case "indexRange":
        // `[i:END]` (and ols) read everything the window holds.
        if (r.to === "END") mergeNeed(into, r.series, { count: r.from + 1, toOldest: true });
        else mergeNeed(into, r.series, { count: Math.max(r.from, r.to) + 1 });
        break;
      case "nearest":
        mergeNeed(into, r.series, { lookbackMs: Math.abs(r.offsetMs) });
        break;
      case "timeRange":
        mergeNeed(into, r.series, {
          lookbackMs: Math.max(Math.abs(r.fromOffsetMs), r.toOffsetMs === "END" ? 0 : Math.abs(r.toOffsetMs)),
          toOldest: r.toOffsetMs === "END",
        });
        break;
    }
  }
  return into;
}

/** Every expression hour entry of every period. */
export function policyNeeds(policy: ThresholdPolicy, macros: Macros, into: HistoryNeeds = new Map()): HistoryNeeds {
  const seen = new Set<string>();
  for (const period of policy.periods) {
    for (const entry of period.hours.entries) {
      if (entry?.kind !== "expression" || seen.has(entry.source)) continue;
      seen.add(entry.source);
      sourceNeeds(entry.source, macros, into);
    }
  }
  return into;
}
