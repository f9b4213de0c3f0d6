/**
 * The Prometheus text exposition format (0.0.4) and OpenMetrics text, as node_exporter and every
 * client library serve them: enough to pick samples out of a scrape. Comments (`# HELP`, `# TYPE`,
 * `# EOF`) are skipped; timestamps and exemplars are ignored.
 */

export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A selector as an agent item's exec writes it: `name` or `name{label="value",…}` (all given labels must match). */
export interface SampleSelector {
  name: string;
  labels: Record<string, string>;
}

export class ExpositionError extends Error {}

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL = /[a-zA-Z_][a-zA-Z0-9_]*/y;

class Reader {
  position = 0;
  constructor(readonly text: string) {}
  match(re: RegExp): string | null {
    re.lastIndex = this.position;
    const m = re.exec(this.text);
    if (!m) return null;
    this.position += m[0].length;
    return m[0];
  }
  skipSpaces(): void {
    while (this.text[this.position] === " " || this.text[this.position] === "\t") this.position++;
  }
  fail(what: string): never {
    throw new ExpositionError(`${what} at column ${this.position + 1}: ${this.text.slice(0, 200)}`);
  }
  /** `{a="b",c="d"}`, optional; escapes \\, \" and \n in values. */
  labels(): Record<string, string> {
    const labels: Record<string, string> = {};
    if (this.text[this.position] !== "{") return labels;
    this.position++;
    for (;;) {
      this.skipSpaces();
      if (this.text[this.position] === "}") break;
      const name = this.match(LABEL) ?? this.fail("expected a label name");
      this.skipSpaces();
      if (this.text[this.position++] !== "=") this.fail("expected =");
      this.skipSpaces();
      if (this.text[this.position++] !== '"') this.fail("expected a quoted label value");
      let value = "";
      for (;;) {
        const c = this.text[this.position++];
        if (c === undefined) this.fail("unterminated label value");
        if (c === '"') break;
        if (c === "\\") {
          const e = this.text[this.position++];
          value += e === "n" ? "\n" : (e ?? "");
        } else value += c;
      }
      labels[name] = value;
      this.skipSpaces();
      if (this.text[this.position] === ",") this.position++;
    }
    this.position++;
    return labels;
  }
}

function number(text: string): number {
  if (text === "+Inf" || text === "Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (text === "NaN") return Number.NaN;
  const n = Number(text);
  if (text === "" || Number.isNaN(n)) throw new ExpositionError(`not a number: ${text.slice(0, 50)}`);
  return n;
}

/** Every sample of a scrape, in order; throws ExpositionError naming the line that is not a sample. */
export function parseExposition(text: string): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "" || line.startsWith("#")) continue;
    try {
      const r = new Reader(line);
      const name = r.match(NAME) ?? r.fail("expected a metric name");
      const labels = r.labels();
      r.skipSpaces();
      const value = line.slice(r.position).split(/\s+/)[0] ?? "";
      samples.push({ name, labels, value: number(value) });
    } catch (error) {
      if (error instanceof ExpositionError) throw new ExpositionError(`line ${i + 1}: ${error.message}`);
      throw error;
    }
  }
  return samples;
}

export function parseSampleSelector(text: string): SampleSelector {
  const r = new Reader(text.trim());
  const name = r.match(NAME) ?? r.fail("expected a metric name");
  const labels = r.labels();
  if (r.position !== r.text.length) r.fail("unexpected text after the selector");
  return { name, labels };
}

/**
 * The value a selector picks: the sum of the matching samples (`node_cpu_seconds_total{mode="idle"}`
 * adds up the CPUs); null when none matches.
 */
export function selectValue(samples: readonly ExpositionSample[], selector: SampleSelector): number | null {
  let sum: number | null = null;
  for (const s of samples) {
    if (s.name !== selector.name) continue;
    if (!Object.entries(selector.labels).every(([k, v]) => s.labels[k] === v)) continue;
    sum = (sum ?? 0) + s.value;
  }
  return sum;
}
