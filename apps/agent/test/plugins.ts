import { existsSync } from "node:fs";

export const PLUGINS = "/usr/lib/nagios/plugins";

/**
 * The shell checks are tested against Debian's real plugins. `npm test` installs them before any
 * phase starts (scripts/lib/system-packages.ts); a test never installs anything itself, since an
 * install on a fresh machine outlasts a hook's timeout.
 */
export function requireMonitoringPlugins(): void {
  if (existsSync(`${PLUGINS}/check_dummy`) && existsSync(`${PLUGINS}/check_tcp`)) return;
  throw new Error(
    `Debian's monitoring plugins are missing in ${PLUGINS}: run the tests through npm test, which installs them, or apt-get install -y monitoring-plugins-basic`,
  );
}
