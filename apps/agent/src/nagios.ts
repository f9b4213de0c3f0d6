/**
 * The Nagios plugin protocol (the Nagios plugin development guidelines): exit code 0 OK,
 * 1 WARNING, 2 CRITICAL, 3 UNKNOWN (anything else is UNKNOWN too), a first line for people, and
 * performance data after `|`: `'label'=value[UOM];[warn];[crit];[min];[max]`, space-separated,
 * labels quoted with `'` when they hold spaces (`''` is a quote inside), the value `U` when the
 * plugin could not determine it. A value that is not a number (`3,5`) is an error reported with
 * its label, never read as a different number.
 */

export interface PerfValue {
  label: string;
  /** null: `U` (undetermined), or a malformed entry (see `error`). */
  value: number | null;
  uom: string;
  /** Why the entry could not be read. */
  error?: string;
}

export interface PluginOutput {
  status: 0 | 1 | 2 | 3;
  /** First line of the text part. */
  summary: string;
  perfdata: PerfValue[];
}

export function pluginStatus(exitCode: number | null): PluginOutput["status"] {
  return exitCode === 0 || exitCode === 1 || exitCode === 2 || exitCode === 3 ? exitCode : 3;
}

/** Perfdata can follow `|` on the first line and on every later line (after the long text). */
export function parsePluginOutput(stdout: string, exitCode: number | null): PluginOutput {
  const lines = stdout.split(/\r?\n/);
  const [firstText = "", firstPerf = ""] = (lines[0] ?? "").split("|", 2);
  const perfParts = [firstPerf];
  let inPerf = false;
  for (const line of lines.slice(1)) {
    const bar = line.indexOf("|");
    if (inPerf) perfParts.push(line);
    else if (bar >= 0) {
      perfParts.push(line.slice(bar + 1));
      inPerf = true;
    }
  }
  return { status: pluginStatus(exitCode), summary: firstText.trim(), perfdata: perfParts.flatMap(parsePerfdata) };
}

/** A label: quoted (`''` inside is a quote) or bare (no space, `=` or quote). */
const LABEL = /('(?:[^']|'')+'|[^='\s]+)=/y;
/** The value and its unit, up to the end of the entry (a space, or `;` and the warn/crit/min/max fields). */
const VALUE = /(U|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([a-zA-Z%]*)(?=;|\s|$)/y;
/** The rest of an entry: a quoted label may hold spaces, nothing else does. */
const ENTRY_REST = /\S*/y;

export function parsePerfdata(text: string): PerfValue[] {
  const values: PerfValue[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (/\s/.test(text[pos]!)) {
      pos++;
      continue;
    }
    LABEL.lastIndex = pos;
    const label = LABEL.exec(text);
    const valueAt = label ? LABEL.lastIndex : pos;
    ENTRY_REST.lastIndex = valueAt;
    const rest = ENTRY_REST.exec(text)![0];
    const end = ENTRY_REST.lastIndex;
    if (!label) {
      values.push({ label: rest, value: null, uom: "", error: `"${rest}" is not label=value` });
      pos = end;
      continue;
    }
    const raw = label[1]!;
    const name = raw.startsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : raw;
    VALUE.lastIndex = valueAt;
    const value = VALUE.exec(text);
    if (value) values.push({ label: name, value: value[1] === "U" ? null : Number(value[1]), uom: value[2] ?? "" });
    else
      values.push({
        label: name,
        value: null,
        uom: "",
        error: `${name}: "${rest.split(";")[0]}" is not a number (digits, "-" and "." and a unit)`,
      });
    pos = end;
  }
  return values;
}

export interface ShellExec {
  command: string;
  /** Which perfdata label is the item's value; null = the first one. */
  label: string | null;
}

/** An item's exec statement: a command line, or Bischeck's `{"check": "…", "label": "…"}`. */
export function parseShellExec(exec: string): ShellExec {
  const trimmed = exec.trim();
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new Error(`exec looks like Bischeck's {"check": …, "label": …} form but is not valid JSON: ${trimmed.slice(0, 80)}`);
    }
    const { check, label } = (parsed ?? {}) as { check?: unknown; label?: unknown };
    if (typeof check !== "string" || check.trim() === "") throw new Error(`{"check": …} needs a command: ${trimmed.slice(0, 80)}`);
    if (label !== undefined && typeof label !== "string") throw new Error(`"label" must be a string: ${trimmed.slice(0, 80)}`);
    return { command: check, label: label ?? null };
  }
  return { command: trimmed, label: null };
}

/**
 * The item's value from a plugin run: the labelled perfdata entry (or the first); null when
 * absent or `U`. A malformed entry gives its error instead of a value.
 */
export function pickValue(output: PluginOutput, label: string | null): { value: number | null; error?: string } {
  const entry = label === null ? output.perfdata[0] : output.perfdata.find((p) => p.label === label);
  if (!entry) return { value: null };
  return entry.error ? { value: null, error: entry.error } : { value: entry.value };
}
