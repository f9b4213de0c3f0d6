import type { AgentCheck } from "@tidemark/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Program, startNodeExporter } from "../../../scripts/lib/prometheus-programs.ts";
import { runScrapeCheck } from "../src/checks/scrape.ts";

let nodeExporter: Program;
beforeAll(async () => {
  nodeExporter = await startNodeExporter();
});
afterAll(async () => nodeExporter?.stop());

function check(url: string, execs: string[]): AgentCheck {
  return {
    id: "h-node",
    host: "h",
    service: "node",
    url,
    schedules: ["15S"],
    timeoutMs: 5000,
    items: execs.map((exec, i) => ({ name: `i${i}`, key: `h-node-i${i}`, exec })),
  };
}

describe("scrape+http:// checks against Debian's node_exporter", () => {
  it("turn the chosen samples into item results", async () => {
    {
      const c = check(`scrape+${nodeExporter.url}/metrics`, [
        "node_memory_MemTotal_bytes",
        "node_load1",
        'node_scrape_collector_success{collector="loadavg"}',
        "node_no_such_metric",
        "not a selector",
      ]);
      const results = await runScrapeCheck(c, AbortSignal.timeout(5000));
      const [mem, load, success, missing, bad] = results;
      expect(mem).toMatchObject({ key: "h-node-i0", status: 0 });
      expect(mem!.value).toBeGreaterThan(1_000_000);
      expect(load).toMatchObject({ status: 0, value: expect.any(Number) });
      expect(success).toMatchObject({ status: 0, value: 1 });
      expect(missing).toMatchObject({ status: 3, value: null, output: "no sample matches node_no_such_metric" });
      expect(bad).toMatchObject({ status: 3, value: null, output: expect.stringMatching(/^bad selector/) });
    }
  });

  it("report a target that is down or not a metrics page as CRITICAL", async () => {
    const page = check(`scrape+${nodeExporter.url}/`, ["node_load1"]);
    const [result] = await runScrapeCheck(page, AbortSignal.timeout(5000));
    expect(result).toMatchObject({ status: 2, value: null, output: expect.stringMatching(/^not a metrics page/) });
  });
});
