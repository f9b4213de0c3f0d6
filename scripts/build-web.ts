/**
 * `tsx scripts/build-web.ts`: the web app's production build and its server's one-file bundle, as
 * `npm start` makes them (scripts/lib/build.ts). The Docker image's web stage runs this once at
 * build time and then the bundle with plain node, as `npm start` does.
 */
import { ensureWebBuild, webServerBundle } from "./lib/build.ts";

await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
process.stdout.write(`${webServerBundle()}\n`);
