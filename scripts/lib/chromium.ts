import { CHROMIUM_PACKAGE, ensureSystemPackages } from "./system-packages.ts";

export const CHROMIUM = CHROMIUM_PACKAGE.provides;

/** How the browser tests and the render benchmark run it: root in a container, no GPU, nothing in the background. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Playwright cannot download its browser here; Debian's Chromium is installed instead (once, up front). */
export async function ensureChromium(log: (m: string) => void): Promise<void> {
  await ensureSystemPackages([CHROMIUM_PACKAGE], log);
}
