import { readFile } from "node:fs/promises";

/**
 * Real series from the Numenta Anomaly Benchmark (shared/data/nab), shifted so that the last
 * point lands on the latest whole step before `now` while keeping weekdays aligned (the shift
 * is a whole number of weeks), since NAB's seasonality is weekly.
 */
export async function readNabSeries(file: string, now: number): Promise<{ ts: number; value: number }[]> {
  const text = await readFile(file, "utf8");
  const rows = text
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [ts, value] = line.split(",");
      return { ts: Date.parse(`${ts?.replace(" ", "T")}Z`), value: Number(value) };
    })
    .filter((r) => Number.isFinite(r.ts) && Number.isFinite(r.value));
  const last = rows.at(-1)?.ts ?? now;
  const week = 7 * 86_400_000;
  const shift = Math.floor((now - last) / week) * week;
  return rows.map((r) => ({ ts: r.ts + shift, value: r.value }));
}
