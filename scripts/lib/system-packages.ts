/**
 * The Debian packages Tidemark's commands need that npm cannot install: Chromium for the browser
 * tests, the monitoring plugins for the local agent and the shell-check tests, a PostgreSQL server
 * for the plain-PostgreSQL run. Each command installs what it needs once, up front, in one
 * `apt-get update` and one `apt-get install`, before anything runs — never from inside a test's
 * hook, whose timeout an install on a fresh machine outlasts.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { run } from "./processes.ts";

export interface SystemPackage {
  /** Debian's package name. */
  name: string;
  /** A file the package installs: present means installed. */
  provides: string;
  /** What needs it, said when it is installed or missing. */
  for: string;
}

export const PLUGINS_DIR = "/usr/lib/nagios/plugins";

export const MONITORING_PLUGINS: SystemPackage = {
  name: "monitoring-plugins-basic",
  provides: `${PLUGINS_DIR}/check_tcp`,
  for: "the agent's shell checks (check_dummy, check_tcp, …)",
};
export const CHROMIUM_PACKAGE: SystemPackage = {
  name: "chromium",
  provides: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  for: "the browser tests",
};
export const POSTGRESQL_SERVER: SystemPackage = {
  name: "postgresql",
  provides: "/usr/bin/pg_lsclusters",
  for: "the plain-PostgreSQL integration run",
};

export const DOCKER_COMPOSE: SystemPackage = {
  name: "docker-compose",
  provides: "/usr/bin/docker-compose",
  for: "the check of docker-compose.yml (no Docker engine needed)",
};

export const PROMETHEUS_PACKAGE: SystemPackage = {
  name: "prometheus",
  provides: "/usr/bin/promtool",
  for: "the remote-write and rule-export tests (prometheus, promtool)",
};
export const ALERTMANAGER_PACKAGE: SystemPackage = {
  name: "prometheus-alertmanager",
  provides: "/usr/bin/prometheus-alertmanager",
  for: "the Alertmanager receiver tests",
};
export const NODE_EXPORTER_PACKAGE: SystemPackage = {
  name: "prometheus-node-exporter",
  provides: "/usr/bin/prometheus-node-exporter",
  for: "the remote-write and scrape-check tests (a real target)",
};
/** Prometheus, Alertmanager and node_exporter: the real programs the Prometheus-facing features are tested against. */
export const PROMETHEUS_STACK: readonly SystemPackage[] = [PROMETHEUS_PACKAGE, ALERTMANAGER_PACKAGE, NODE_EXPORTER_PACKAGE];

/** What `npm test` needs, in the order it is installed. */
export const TEST_PACKAGES: readonly SystemPackage[] = [
  MONITORING_PLUGINS,
  CHROMIUM_PACKAGE,
  POSTGRESQL_SERVER,
  DOCKER_COMPOSE,
  ...PROMETHEUS_STACK,
];
/** What `npm start` needs: the local agent's plugins. */
export const START_PACKAGES: readonly SystemPackage[] = [MONITORING_PLUGINS];
/**
 * What `npm test -- fresh` removes to prove the test command installs them itself. The PostgreSQL
 * server stays: removing it would take the machine's clusters with it.
 */
export const FRESH_REMOVABLE: readonly SystemPackage[] = [MONITORING_PLUGINS, CHROMIUM_PACKAGE, DOCKER_COMPOSE, ...PROMETHEUS_STACK];

export function missingPackages(packages: readonly SystemPackage[]): SystemPackage[] {
  return packages.filter((p) => !existsSync(p.provides));
}

const aptEnv = () => ({ ...process.env, DEBIAN_FRONTEND: "noninteractive" });
/** Another apt run (unattended upgrades, a second checkout's tests) holds the lock: wait for it rather than fail. */
const APT_LOCK_WAIT = ["-o", "DPkg::Lock::Timeout=600"];

/**
 * Installs the missing ones (as root; otherwise says what to run and throws). Resolves to the
 * names installed. One `apt-get update` for all of them, and only when something is missing.
 * Asynchronous, so that `npm start` on a fresh machine builds and seeds while apt works.
 */
export async function ensureSystemPackages(packages: readonly SystemPackage[], log: (m: string) => void): Promise<string[]> {
  const missing = missingPackages(packages);
  if (!missing.length) return [];
  const names = missing.map((p) => p.name);
  const list = missing.map((p) => `${p.name} (${p.for})`).join(", ");
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Debian packages missing: ${list}. Install them with: sudo apt-get install -y --no-install-recommends ${names.join(" ")}`,
    );
  }
  const started = Date.now();
  log(`installing Debian packages: ${list}`);
  // Quiet: on a first `npm start` apt runs beside the web build, and its lines cut through the build's.
  const apt = { cwd: "/", env: aptEnv(), quiet: true };
  await run("apt-get", [...APT_LOCK_WAIT, "update", "-qq"], apt);
  await run("apt-get", [...APT_LOCK_WAIT, "install", "-y", "-qq", "--no-install-recommends", ...names], apt);
  const still = missingPackages(missing);
  if (still.length) throw new Error(`apt-get installed ${names.join(" ")} but ${still.map((p) => p.provides).join(", ")} is still missing`);
  log(`installed ${names.join(", ")} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return names;
}

/** `npm test -- fresh`: removes the packages the test command installs, so that the run proves it installs them. */
export function removeSystemPackages(packages: readonly SystemPackage[], log: (m: string) => void): void {
  if (process.getuid?.() !== 0) throw new Error("npm test -- fresh removes Debian packages and must run as root");
  const installed = packages.filter((p) => existsSync(p.provides)).map((p) => p.name);
  if (!installed.length) {
    log("fresh: none of the test command's Debian packages is installed");
    return;
  }
  log(`fresh: removing ${installed.join(", ")}`);
  execFileSync("apt-get", [...APT_LOCK_WAIT, "remove", "-y", "-qq", ...installed], { stdio: "inherit", env: aptEnv() });
  const left = packages.filter((p) => existsSync(p.provides));
  if (left.length) throw new Error(`fresh: ${left.map((p) => p.provides).join(", ")} is still present after apt-get remove`);
}
