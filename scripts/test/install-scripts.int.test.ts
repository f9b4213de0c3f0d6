import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/paths.ts";

/**
 * The dependencies' install scripts run only where the root package.json's `allowScripts` says so
 * (npm 11's policy): every package the lockfile marks as having one is decided there, and the one
 * we refuse, @prisma/engines' download of a schema engine our own migration runner replaces
 * (packages/db/src/migrate.ts), does not run.
 */

const root = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** The package name of a lockfile path (the last `node_modules/` segment on). */
const nameOf = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf("node_modules/") + "node_modules/".length);

describe("install scripts", () => {
  it("are decided for every dependency that has one", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([lockPath, entry]) => entry.hasInstallScript && lockPath.includes("node_modules/"))
      .map(([lockPath]) => nameOf(lockPath));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((name) => typeof root.allowScripts?.[name] !== "boolean");
    expect(undecided).toEqual([]);
  });

  it("leave out @prisma/engines' download", () => {
    expect(root.allowScripts?.["@prisma/engines"]).toBe(false);
    // Its scripts run as `npm install` runs them; in the foreground npm prints a banner for each one it runs.
    const rebuilt = spawnSync("npm", ["rebuild", "@prisma/engines", "--foreground-scripts"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    const output = `${rebuilt.stdout}${rebuilt.stderr}`;
    expect(rebuilt.status, output).toBe(0);
    expect(output).not.toMatch(/> @prisma\/engines@\S+ postinstall/);
    expect(output).not.toMatch(/not yet covered by allowScripts/);
  });
});
