# syntax=docker/dockerfile:1
# One multi-stage build for Tidemark's three processes (targets web, worker, agent) and the
# one-off migrate step. Each image installs its own node_modules (no host folders mounted), runs
# the same entry points as `npm start`, and runs as the unprivileged `node` user.

# ── every workspace's dependencies, installed as the README does (npm ci trips over optional
#    platform packages npm leaves out of the lock)
FROM node:22-bookworm-slim AS source
ENV NEXT_TELEMETRY_DISABLED=1 PRISMA_HIDE_UPDATE_MESSAGE=1
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && npm cache clean --force

# ── the schema migrations, and the demo organisation when TIDEMARK_SEED_DEMO=1
FROM source AS migrate
USER node
CMD ["node", "--import", "tsx", "scripts/migrate.ts"]

# ── the web app: a production `next build` and its server's one-file bundle, once, at image
#    build time, as `npm start` makes them (scripts/lib/build.ts)
FROM source AS web
RUN node_modules/.bin/tsx scripts/build-web.ts && chown -R node:node apps/web/.next
USER node
WORKDIR /app/apps/web
EXPOSE 3000
# The web server `npm start` runs (scripts/lib/web-server.ts), with plain node: Next.js for pages,
# the API straight from Node's HTTP server.
ENV PORT=3000 NODE_ENV=production
CMD ["node", ".next/tidemark-server.mjs"]

# ── the worker: the same one-file bundle `npm start` runs with plain node (scripts/lib/bundle.ts),
#    built once here
FROM source AS worker
RUN node_modules/.bin/tsx scripts/bundle-worker.ts /app/build/worker.mjs
USER node
WORKDIR /app/apps/worker
# With the worker's node options (apps/worker/src/node-options.ts).
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "/app/build/worker.mjs"]

# ── the collector agent, with Debian's monitoring plugins for its shell checks
FROM source AS agent
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends monitoring-plugins-basic \
 && rm -rf /var/lib/apt/lists/*
USER node
WORKDIR /app/apps/agent
# The agent's node options (apps/agent/src/node-options.ts) size its young generation.
CMD ["node", "--max-semi-space-size=1", "--import", "tsx", "src/main.ts"]
