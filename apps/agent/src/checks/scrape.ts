import { ExpositionError, parseExposition, parseSampleSelector, selectValue } from "@tidemark/prometheus/exposition";
import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { errorText, firstLine } from "./types.ts";

/** `scrape+http://host:9100/metrics` → the URL scraped. */
export function scrapeTarget(url: string): string {
  return url.replace(/^scrape\+/, "");
}

/**
 * scrape+http(s):// — one scrape of a Prometheus / OpenMetrics text endpoint (node_exporter, any
 * client library) per run; each item's exec selects samples (`node_load1`,
 * `node_filesystem_avail_bytes{mountpoint="/"}`), whose values are summed. A failed scrape is
 * CRITICAL; an item whose selector matches nothing is UNKNOWN.
 */
export async function runScrapeCheck(check: AgentCheck, signal: AbortSignal): Promise<CheckResult[]> {
  const ts = Date.now();
  let samples: ReturnType<typeof parseExposition>;
  try {
    const response = await fetch(scrapeTarget(check.url), {
      signal,
      headers: { "user-agent": "tidemark-agent", accept: "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return check.items.map((item) => ({ key: item.key, ts, value: null, status: 2, output: `scrape answered HTTP ${response.status}` }));
    }
    samples = parseExposition(await response.text());
  } catch (error) {
    const output = firstLine(
      signal.aborted
        ? `timed out after ${check.timeoutMs} ms`
        : error instanceof ExpositionError
          ? `not a metrics page: ${error.message}`
          : `scrape failed: ${errorText(error)}`,
    );
    return check.items.map((item) => ({ key: item.key, ts, value: null, status: 2, output }));
  }
  return check.items.map((item) => {
    let value: number | null;
    try {
      value = selectValue(samples, parseSampleSelector(item.exec));
    } catch (error) {
      return { key: item.key, ts, value: null, status: 3, output: firstLine(`bad selector ${item.exec}: ${errorText(error)}`) };
    }
    if (value === null) return { key: item.key, ts, value: null, status: 3, output: firstLine(`no sample matches ${item.exec}`) };
    return { key: item.key, ts, value: Number.isFinite(value) ? value : null, status: 0, output: `${samples.length} samples scraped` };
  });
}
