import { defineConfig } from "@playwright/test";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/lib/chromium.ts";

// `npm test` starts Tidemark on a fresh embedded database and passes its URL as BASE_URL.
export default defineConfig({
  testDir: "./tests",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json"]],
  outputDir: "../test-results",
  // Every journey twice: on a desktop and at a phone's width (390 px). Specs about one width only
  // say so with test.skip on the project's name.
  projects: [
    { name: "desktop", use: { viewport: { width: 1440, height: 900 } } },
    { name: "phone", use: { viewport: { width: 390, height: 844 } } },
  ],
  use: {
    baseURL: process.env.BASE_URL ?? "http://127.0.0.1:3000",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
});
