import type { RuleName, Violation } from "./boundaries.ts";

/**
 * ALLOW-LIST, TEMPORARY: the boundary violations that issue 20b (packages/db's narrow entry points,
 * `@tidemark/db/testing`, the worker's claim object, one path for tests and benches) removes. It
 * MUST BE EMPTY once 20b is merged: scripts/check-boundaries.ts prints these as known and fails on
 * any entry that no longer matches a violation, so that the list only shrinks. Add nothing to it.
 */
export const PENDING_20B: { rule: RuleName; file?: string; specifier: RegExp }[] = [];

export function matches(entry: (typeof PENDING_20B)[number], violation: Violation): boolean {
  return (
    entry.rule === violation.rule &&
    (entry.file === undefined || entry.file === violation.file) &&
    entry.specifier.test(violation.specifier)
  );
}
