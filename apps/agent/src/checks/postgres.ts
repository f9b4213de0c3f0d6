import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { errorText, firstLine } from "./types.ts";

/**
 * postgres:// — each item's exec is SQL returning one number (first column of the first row).
 * One short-lived connection per run: checks run every few seconds at most, and a held pool
 * would keep a connection per monitored server open for nothing.
 */
export async function runPostgresCheck(check: AgentCheck, signal: AbortSignal): Promise<CheckResult[]> {
  const ts = Date.now();
  // Loaded on first use: most agents run no postgres:// check and need not carry the driver.
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    connectionString: check.url.replace(/^postgres(ql)?:\/\//, "postgresql://"),
    connectionTimeoutMillis: check.timeoutMs,
    statement_timeout: check.timeoutMs,
    application_name: "tidemark-agent",
  });
  const abort = () => void client.end().catch(() => undefined);
  signal.addEventListener("abort", abort, { once: true });
  try {
    await client.connect();
  } catch (error) {
    signal.removeEventListener("abort", abort);
    await client.end().catch(() => undefined);
    const output = firstLine(signal.aborted ? `timed out after ${check.timeoutMs} ms` : `cannot connect: ${errorText(error)}`);
    return check.items.map((item) => ({ key: item.key, ts, value: null, status: 2, output }));
  }
  const results: CheckResult[] = [];
  try {
    for (const item of check.items) {
      try {
        const { rows } = await client.query({ text: item.exec, rowMode: "array" });
        const raw = (rows[0] as unknown[] | undefined)?.[0];
        const value = raw === null || raw === undefined ? null : Number(raw);
        if (value !== null && !Number.isFinite(value)) {
          results.push({ key: item.key, ts, value: null, status: 3, output: firstLine(`not a number: ${String(raw)}`) });
        } else {
          results.push({ key: item.key, ts, value, status: 0, output: `${item.name} = ${value}` });
        }
      } catch (error) {
        results.push({
          key: item.key,
          ts,
          value: null,
          status: 3,
          output: firstLine(signal.aborted ? `timed out after ${check.timeoutMs} ms` : errorText(error)),
        });
      }
    }
  } finally {
    signal.removeEventListener("abort", abort);
    await client.end().catch(() => undefined);
  }
  return results;
}
