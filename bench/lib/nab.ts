import { readFileSync } from "node:fs";
import path from "node:path";

/** One labelled series of the Numenta Anomaly Benchmark: raw points and its anomaly windows (epoch ms, UTC). */
export interface LabelledSeries {
  readonly name: string;
  readonly timestamps: Float64Array;
  readonly values: Float64Array;
  readonly windows: readonly { readonly from: number; readonly to: number }[];
}

const utc = (text: string) => Date.parse(`${text.trim().replace(" ", "T").slice(0, 19)}Z`);

/** Every series of `dir`/labels.json (keys are NAB paths; the CSVs sit flat in `dir`), with nulls for empty values. */
export function readLabelledSeries(dir: string): LabelledSeries[] {
  const labels = JSON.parse(readFileSync(path.join(dir, "labels.json"), "utf8")) as Record<string, [string, string][]>;
  return Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, windows]) => {
      const name = path.basename(key);
      const lines = readFileSync(path.join(dir, name), "utf8").trim().split("\n").slice(1);
      const timestamps = new Float64Array(lines.length);
      const values = new Float64Array(lines.length);
      lines.forEach((line, i) => {
        const [ts, value] = line.split(",");
        timestamps[i] = utc(ts ?? "");
        values[i] = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
      });
      return { name, timestamps, values, windows: windows.map(([from, to]) => ({ from: utc(from), to: utc(to) })) };
    });
}
