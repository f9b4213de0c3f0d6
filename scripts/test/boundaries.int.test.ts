import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkBoundaries, type RuleName } from "../lib/boundaries.ts";
import { bin, REPO_ROOT } from "../lib/paths.ts";

/**
 * The boundary check on a small repository of its own (a pure core, db, two apps), clean, then with
 * one violating import planted at a time; and on this repository, where it must pass.
 */

let root: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

const manifest = (name: string, dependencies: Record<string, string> = {}) => JSON.stringify({ name, type: "module", dependencies });

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "tidemark-boundaries-"));
  write("package.json", JSON.stringify({ name: "fixture", workspaces: ["apps/*", "packages/*"], devDependencies: { vitest: "*" } }));
  write("packages/expr/package.json", manifest("@tidemark/expr"));
  write("packages/expr/src/index.ts", "export const parse = (text: string) => text.length;\n");
  write("packages/thresholds/package.json", manifest("@tidemark/thresholds", { "@tidemark/expr": "*" }));
  write(
    "packages/thresholds/src/index.ts",
    'import { parse } from "@tidemark/expr";\nexport const evaluate = (text: string) => parse(text) > 1;\n',
  );
  write("packages/db/package.json", manifest("@tidemark/db", { pg: "*", "@tidemark/thresholds": "*" }));
  write(
    "packages/db/src/index.ts",
    'import pg from "pg";\nimport type { evaluate } from "@tidemark/thresholds";\nexport type Database = { pool: pg.Pool; e: typeof evaluate };\n',
  );
  write("apps/web/package.json", manifest("@tidemark/web", { "@tidemark/db": "*" }));
  write(
    "apps/web/src/page.tsx",
    'import type { Database } from "@tidemark/db";\nexport const Page = ({ db }: { db: Database }) => <p>{String(db)}</p>;\n',
  );
  write(
    "apps/web/test/page.test.ts",
    'import { it } from "vitest";\nimport { Page } from "../src/page.tsx";\nit("renders", () => void Page);\n',
  );
  write("apps/worker/package.json", manifest("@tidemark/worker"));
  write("apps/worker/src/main.ts", "export const run = () => 1;\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the boundary check", () => {
  it("finds nothing in a repository that keeps the rules", () => {
    expect(checkBoundaries(root)).toEqual([]);
  });

  const planted: [what: string, file: string, text: string, rule: RuleName, specifier: string][] = [
    [
      "a pure core importing pg",
      "packages/thresholds/src/planted.ts",
      'import pg from "pg";\nexport const p = pg;\n',
      "pure-core-no-io",
      "pg",
    ],
    [
      "a pure core reading files",
      "packages/thresholds/src/planted.ts",
      'import { readFileSync } from "node:fs";\nexport const r = readFileSync;\n',
      "pure-core-no-io",
      "node:fs",
    ],
    [
      "a pure core naming db, for a type only",
      "packages/thresholds/src/planted.ts",
      'import type { Database } from "@tidemark/db";\nexport type D = Database;\n',
      "pure-core-no-io",
      "@tidemark/db",
    ],
    ["an app importing pg", "apps/web/src/planted.ts", 'import pg from "pg";\nexport const p = pg;\n', "sql-only-in-db", "pg"],
    [
      "an app importing Prisma, dynamically",
      "apps/worker/src/planted.ts",
      'export const load = () => import("@prisma/client");\n',
      "sql-only-in-db",
      "@prisma/client",
    ],
    [
      "a test reaching into another workspace",
      "apps/web/test/planted.test.ts",
      'import { run } from "../../worker/src/main.ts";\nexport const r = run;\n',
      "no-relative-import-across-workspaces",
      "../../worker/src/main.ts",
    ],
    [
      "an app importing another (in JSX)",
      "apps/web/src/planted.tsx",
      'import { run } from "@tidemark/worker";\nexport const P = () => <p>{run()}</p>;\n',
      "apps-not-to-apps",
      "@tidemark/worker",
    ],
    [
      "a package importing an app",
      "packages/db/src/planted.ts",
      'export { Page } from "../../../apps/web/src/page.tsx";\n',
      "packages-not-to-apps",
      "../../../apps/web/src/page.tsx",
    ],
    [
      "an import its package.json does not declare",
      "apps/web/src/planted.ts",
      'import { parse } from "@tidemark/expr";\nexport const p = parse;\n',
      "manifest-undeclared",
      "@tidemark/expr",
    ],
  ];

  it.each(planted)("fails on %s", (_what, file, text, rule, specifier) => {
    write(file, text);
    expect(checkBoundaries(root)).toContainEqual({ rule, file, specifier });
  });

  it("fails on a declared dependency nothing imports", () => {
    write("apps/worker/package.json", manifest("@tidemark/worker", { "@tidemark/thresholds": "*" }));
    expect(checkBoundaries(root)).toEqual([
      { rule: "manifest-unused", file: "apps/worker/package.json", specifier: "@tidemark/thresholds" },
    ]);
  });

  it("fails on workspaces that import each other in a circle", () => {
    write("packages/expr/package.json", manifest("@tidemark/expr", { "@tidemark/thresholds": "*" }));
    write("packages/expr/src/planted.ts", 'import { evaluate } from "@tidemark/thresholds";\nexport const e = evaluate;\n');
    expect(checkBoundaries(root)).toContainEqual({
      rule: "no-workspace-cycle",
      file: "packages/thresholds/package.json",
      specifier: "@tidemark/thresholds → @tidemark/expr → @tidemark/thresholds",
    });
  });

  it("exits 1 from the command line, naming the rule and the file", () => {
    write("packages/thresholds/src/planted.ts", 'import pg from "pg";\nexport const p = pg;\n');
    const run = spawnSync(bin("tsx"), [path.join(REPO_ROOT, "scripts", "check-boundaries.ts"), root], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/✗ pure-core-no-io: .*\n {4}packages\/thresholds\/src\/planted\.ts: pg\n/);
  });

  it("passes on this repository", () => {
    const run = spawnSync(bin("tsx"), [path.join(REPO_ROOT, "scripts", "check-boundaries.ts")], { encoding: "utf8" });
    expect(run.stdout).toContain("boundaries: every import keeps the rules");
    expect(run.status).toBe(0);
  });
});

describe("biome's rule for the pure cores", () => {
  it("fails on a pure core reading process.env, and not on another package doing so", () => {
    copyFileSync(path.join(REPO_ROOT, "biome.jsonc"), path.join(root, "biome.jsonc"));
    write("packages/alerts/src/planted.ts", "export const url = process.env.TIDEMARK_PUBLIC_URL;\n");
    write("packages/api/src/planted.ts", "export const url = process.env.TIDEMARK_PUBLIC_URL;\n");
    const lint = (file: string) => {
      try {
        execFileSync(bin("biome"), ["lint", "--vcs-use-ignore-file=false", file], { cwd: root, encoding: "utf8", stdio: "pipe" });
        return "";
      } catch (error) {
        return String((error as { stdout?: string; stderr?: string }).stdout) + String((error as { stderr?: string }).stderr);
      }
    };
    expect(lint("packages/alerts/src/planted.ts")).toContain("lint/style/noProcessEnv");
    expect(lint("packages/api/src/planted.ts")).toBe("");
  });
});
