/**
 * The Nagios plugin protocol: exit code 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (anything else is
 * UNKNOWN too), a first line for people, and performance data after `|`:
 * `label=value[UOM];warn;crit;min;max`, labels quoted with `'` when they contain spaces.
 */

export interface PerfValue {
  label: string;
  value: number;
  uom: string;
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

const PERF_ENTRY = /\s*('(?:[^']|'')+'|[^=\s]+)=([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([a-zA-Z%/]*)(?:;[^\s]*)?/y;

export function parsePerfdata(text: string): PerfValue[] {
  const values: PerfValue[] = [];
  PERF_ENTRY.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    PERF_ENTRY.lastIndex = pos;
    const match = PERF_ENTRY.exec(text);
    if (!match) {
      // Skip a malformed entry (plugins do emit them) and carry on with the next one.
      const next = text.indexOf(" ", pos + 1);
      if (next < 0) break;
      pos = next;
      continue;
    }
    const raw = match[1] as string;
    const label = raw.startsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : raw;
    values.push({ label, value: Number(match[2]), uom: match[3] ?? "" });
    pos = PERF_ENTRY.lastIndex;
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

/** The item's value from a plugin run: the labelled perfdata value (or the first); null when absent. */
export function pickValue(output: PluginOutput, label: string | null): number | null {
  const entry = label === null ? output.perfdata[0] : output.perfdata.find((p) => p.label === label);
  return entry ? entry.value : null;
}
