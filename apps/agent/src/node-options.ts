/**
 * Options the agent's node process is started with: they size the heap when the process starts,
 * so unlike the engine settings in v8-flags.ts they cannot be set from inside. Every launcher
 * passes them: `npm start` (scripts/start.ts), this package's `npm start` (package.json, which
 * cannot import this list and repeats it, as do the README and docker-compose.yml), the agent
 * benchmarks and the integration tests' agent processes.
 *
 * A young generation of at most 2 × 1 MB instead of V8's 2 × 16 MB: the agent allocates little,
 * but a burst of configuration pushes (each configuration surviving a few scavenges) grows the
 * young generation to its maximum and RSS with it, 60 MB → 85 MB in the reload benchmark, until a
 * full collection shrinks it again. With 1 MB the agent stays at 57–64 MB through 1000 pushes, as fast.
 */
export const AGENT_NODE_OPTIONS = ["--max-semi-space-size=1"];
