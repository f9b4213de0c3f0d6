import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const PLUGINS = "/usr/lib/nagios/plugins";

/** The shell checks are tested against Debian's real plugins; installed here when missing (as root). */
export function ensureMonitoringPlugins(): void {
  if (existsSync(`${PLUGINS}/check_dummy`) && existsSync(`${PLUGINS}/check_tcp`)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Nagios plugins are missing in ${PLUGINS}: install them with sudo apt-get install -y monitoring-plugins-basic`);
  }
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "monitoring-plugins-basic"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}
