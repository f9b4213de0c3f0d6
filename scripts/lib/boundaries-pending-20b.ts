import type { RuleName, Violation } from "./boundaries.ts";

/**
 * ALLOW-LIST, TEMPORARY: the boundary violations that issue 20b (packages/db's narrow entry points,
 * `@tidemark/db/testing`, the worker's claim object, one path for tests and benches) removes. It
 * MUST BE EMPTY once 20b is merged: scripts/check-boundaries.ts prints these as known and fails on
 * any entry that no longer matches a violation, so that the list only shrinks. Add nothing to it.
 */
export const PENDING_20B: { rule: RuleName; file?: string; specifier: RegExp }[] = [
  // The worker peeks at the queue in SQL and commits a transaction db began: a claim object replaces both.
  { rule: "sql-only-in-db", file: "apps/worker/src/evaluator.ts", specifier: /^pg$/ },
  { rule: "sql-only-in-db", file: "apps/worker/src/window-loader.ts", specifier: /^pg$/ },
  // The browser tests' and the ingest bench's own SQL: through @tidemark/db/testing and the production path.
  { rule: "sql-only-in-db", file: "e2e/tests/database.ts", specifier: /^pg$/ },
  { rule: "sql-only-in-db", file: "bench/scenarios/ingest.ts", specifier: /^pg-copy-streams$/ },
  // Every suite's shared helpers, by relative path until they are exported as @tidemark/db/testing.
  { rule: "no-relative-import-across-workspaces", specifier: /(^|\/)db\/test\/helpers\.ts$/ },
];

export function matches(entry: (typeof PENDING_20B)[number], violation: Violation): boolean {
  return (
    entry.rule === violation.rule &&
    (entry.file === undefined || entry.file === violation.file) &&
    entry.specifier.test(violation.specifier)
  );
}
