/**
 * A whole Bischeck configuration directory (etc/): which files the import reads (bischeck.xml,
 * 24thresholds.xml, properties.xml), and a preview of
 * what happens to each service — kept (runs as in Bischeck), mapped (runs through another check,
 * e.g. jdbc:postgresql: → postgres://) or disabled (kept but not run: livestatus://, other jdbc:).
 * Pure: the CLI and the UI hand in the files' names and text.
 */
import { isRunnableUrl } from "@tidemark/model";
import type { BischeckFiles, BischeckImport } from "./import.ts";
import { redactUrl } from "./redact-url.ts";

export interface DirectoryFile {
  /** The file's name (a path is reduced to its last part). */
  readonly name: string;
  readonly text: string;
}

/** Bischeck's other configuration files: what Tidemark does instead. */
const OTHER_FILES: Readonly<Record<string, string>> = {
  "servers.xml":
    "servers.xml (where Bischeck sent results: Nagios NSCA, Graphite, …) is not imported: Tidemark keeps results itself; see docs/bischeck.md for notification webhooks and Prometheus",
  "urlservices.xml": "urlservices.xml is not imported: Tidemark knows its URL schemes (shell, bischeck, http(s), postgres)",
};

export interface DirectoryFiles {
  /** What importBischeck reads; null when the directory has no bischeck.xml. */
  readonly files: BischeckFiles | null;
  /** Files found and not read, each with what to do instead. */
  readonly notes: readonly string[];
}

export function filesFromDirectory(entries: readonly DirectoryFile[]): DirectoryFiles {
  const byName = new Map(entries.map((e) => [e.name.split(/[\\/]/).at(-1) ?? e.name, e.text]));
  const bischeckXml = byName.get("bischeck.xml");
  const thresholdsXml = byName.get("24thresholds.xml");
  const propertiesXml = byName.get("properties.xml");
  const notes: string[] = [];
  for (const name of [...byName.keys()].sort()) {
    if (name === "bischeck.xml" || name === "24thresholds.xml" || name === "properties.xml") continue;
    notes.push(OTHER_FILES[name] ?? `${name} is not a Bischeck configuration file Tidemark reads`);
  }
  return { files: bischeckXml === undefined ? null : { bischeckXml, thresholdsXml, propertiesXml }, notes };
}

export type ServiceFate = "kept" | "mapped" | "disabled";

export interface ServicePreview {
  readonly host: string;
  readonly service: string;
  readonly url: string;
  readonly fate: ServiceFate;
  /** The URL as Bischeck had it, when mapped. */
  readonly from: string | null;
}

export interface ImportPreview {
  readonly services: readonly ServicePreview[];
  readonly counts: Readonly<Record<ServiceFate, number>>;
}

/** Every imported service with its fate. */
export function importPreview(result: BischeckImport): ImportPreview {
  const services: ServicePreview[] = result.configuration.hosts.flatMap((h) =>
    h.services.map((s): ServicePreview => {
      const from = result.mappedUrls.get(s.url) ?? null;
      const fate: ServiceFate = !isRunnableUrl(s.url) ? "disabled" : from !== null ? "mapped" : "kept";
      return { host: h.name, service: s.name, url: s.url, fate, from };
    }),
  );
  const counts = { kept: 0, mapped: 0, disabled: 0 };
  for (const s of services) counts[s.fate]++;
  return { services, counts };
}

/** The preview as text, for the command line. */
export function formatPreview(result: BischeckImport, preview: ImportPreview, notes: readonly string[]): string {
  const c = result.configuration;
  const services = c.hosts.flatMap((h) => h.services);
  const items = services.flatMap((s) => s.items);
  const lines = [
    `${c.hosts.length} hosts, ${services.length} services, ${items.length} service items, ${items.filter((i) => i.policy).length} threshold policies`,
    `services: ${preview.counts.kept} kept, ${preview.counts.mapped} mapped, ${preview.counts.disabled} disabled`,
  ];
  for (const fate of ["mapped", "disabled"] as const) {
    for (const s of preview.services.filter((p) => p.fate === fate)) {
      lines.push(`  ${fate.padEnd(8)} ${s.host}-${s.service}: ${redactUrl(s.url)}${s.from === null ? "" : ` (was ${redactUrl(s.from)})`}`);
    }
  }
  if (notes.length > 0) lines.push(`${notes.length} file(s) not read:`, ...notes.map((n) => `  ${n}`));
  if (result.warnings.length > 0) lines.push(`${result.warnings.length} warning(s):`, ...result.warnings.map((w) => `  ${w}`));
  return lines.join("\n");
}
