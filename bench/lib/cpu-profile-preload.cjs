// Loaded into the web server with NODE_OPTIONS=--require (where --cpu-prof is not allowed) by the
// api scenario's BENCH_WEB_CPU_PROF: the first SIGUSR2 starts V8's CPU profiler, the second writes
// the profile to $BENCH_WEB_CPU_PROF/web-<pid>-<n>.cpuprofile, so that a profile covers one
// measured run and none of the start-up. Every other process (start.ts, the worker, the agents) ignores it.
const { Session } = require("node:inspector");
const { writeFileSync } = require("node:fs");
const path = require("node:path");

// The web server: its bundle (scripts/lib/build.ts's WEB_SERVER_BUNDLE_NAME).
if (process.argv.some((a) => a.endsWith("tidemark-server.mjs"))) {
  const session = new Session();
  session.connect();
  let running = false;
  let written = 0;
  process.on("SIGUSR2", () => {
    if (!running) {
      session.post("Profiler.enable", () =>
        session.post("Profiler.setSamplingInterval", { interval: 200 }, () => session.post("Profiler.start", () => {})),
      );
      running = true;
      return;
    }
    running = false;
    session.post("Profiler.stop", (error, result) => {
      if (error) return;
      const file = path.join(process.env.BENCH_WEB_CPU_PROF, `web-${process.pid}-${++written}.cpuprofile`);
      writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
