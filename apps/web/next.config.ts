import type { NextConfig } from "next";

const config: NextConfig = {
  // Separate build folders let several checkouts' dev servers and test runs build side by side.
  distDir: process.env.TIDEMARK_NEXT_DIST ?? ".next",
  // Workspace packages ship TypeScript source (create-t3-turbo's "internal packages").
  transpilePackages: [
    "@tidemark/api",
    "@tidemark/db",
    "@tidemark/auth",
    "@tidemark/model",
    "@tidemark/expr",
    "@tidemark/thresholds",
    "@tidemark/protocol",
    "@tidemark/alerts",
    "@tidemark/bischeck",
    "@tidemark/config-render",
    "@tidemark/outbound",
    "@tidemark/suggest",
    "@tidemark/prometheus",
  ],
  // Loaded from node_modules, not bundled (here and in the web server's bundle, scripts/lib/bundle.ts).
  // @prisma/debug with the adapter: a bundled copy is another instance, whose history
  // forgetPrismaHistory cleared while the adapter's kept a 10 000-host import (issue 22).
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "@prisma/client", "@prisma/debug", "protobufjs", "snappyjs", "pino", "prom-client"],
  // Type checking is `npm run typecheck` (one place for the whole repo), not a build step.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // Turbopack keeps a build cache under .next by default, for the next build to reuse. `npm start`
    // builds once per change of the sources (scripts/lib/build.ts), and writing that cache cost a
    // newcomer's first start 11 s on a busy machine (issue 22) for a reuse that rarely comes.
    turbopackFileSystemCacheForBuild: false,
    // Source maps of the server's chunks (263 files, 27 MB; the browser's are off by default):
    // nothing reads them — the server runs without --enable-source-maps — and writing them cost
    // 10–15 % of the build's CPU (issue 22: 24.9 and 28.2 s of user CPU against 27.0 and 33.2 s).
    turbopackSourceMaps: false,
    // The server's chunks unminified: minifying them was 15–20 % of the build's CPU (issue 22: 17.3–18.7
    // against 20.9–22.1 s of user CPU, three builds each), for code that is read from disk once per
    // process; its stack traces keep their function names. The browser's bundles stay minified.
    serverMinification: false,
  },
  poweredByHeader: false,
  devIndicators: false,
};

export default config;
