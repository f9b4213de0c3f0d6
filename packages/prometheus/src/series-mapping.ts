import { seriesKey } from "@tidemark/expr";
import * as z from "zod";

/**
 * Which labels name a Tidemark host and service; the metric name and every other label name the
 * item. The defaults follow Prometheus' own target labels: `instance` → host, `job` → service.
 */
export const seriesMappingSchema = z.object({
  hostLabel: z
    .string()
    .regex(/^[a-zA-Z_]\w*$/)
    .default("instance"),
  serviceLabel: z
    .string()
    .regex(/^[a-zA-Z_]\w*$/)
    .default("job"),
});
export type SeriesMapping = z.infer<typeof seriesMappingSchema>;
export const DEFAULT_SERIES_MAPPING: SeriesMapping = { hostLabel: "instance", serviceLabel: "job" };

/** The remote-write URL's query choosing `mapping` (`?host=cluster&service=app`; empty for the defaults), as `/api/prom/write` reads it. */
export function seriesMappingQuery(mapping: SeriesMapping): string {
  const params = new URLSearchParams();
  if (mapping.hostLabel !== DEFAULT_SERIES_MAPPING.hostLabel) params.set("host", mapping.hostLabel);
  if (mapping.serviceLabel !== DEFAULT_SERIES_MAPPING.serviceLabel) params.set("service", mapping.serviceLabel);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Used when a series lacks the host or service label (a recording rule's output often has no `instance`). */
export const MISSING_LABEL_NAME = "prometheus";

/** Tidemark's names allow no whitespace, brackets, parentheses, commas or `$`: replaced by `_`. */
const FORBIDDEN = /[\s[\]()$,]/g;
const MAX_NAME = 128;

/** A name Tidemark accepts: forbidden characters replaced; an over-long one cut and given a hash of the whole. */
export function tidemarkName(text: string): string {
  const clean = text.replace(FORBIDDEN, "_") || "_";
  if (clean.length <= MAX_NAME) return clean;
  return `${clean.slice(0, MAX_NAME - 9)}~${fnv32(clean)}`;
}

function fnv32(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

export interface MappedSeries {
  host: string;
  service: string;
  item: string;
  key: string;
}

/**
 * `node_load1{instance="db1:9100",job="node"}` → host `db1:9100`, service `node`, item
 * `node_load1`; further labels join the item in braces, sorted, separated by `;` (Tidemark's names
 * allow no commas): `node_cpu_seconds_total{cpu=0;mode=idle}`.
 */
export function mapSeries(labels: Readonly<Record<string, string>>, mapping: SeriesMapping = DEFAULT_SERIES_MAPPING): MappedSeries {
  const host = tidemarkName(labels[mapping.hostLabel] || MISSING_LABEL_NAME);
  const service = tidemarkName(labels[mapping.serviceLabel] || MISSING_LABEL_NAME);
  const rest = Object.keys(labels)
    .filter((name) => name !== "__name__" && name !== mapping.hostLabel && name !== mapping.serviceLabel)
    .sort()
    .map((name) => `${name}=${labels[name]}`);
  const metric = labels.__name__ || "value";
  const item = tidemarkName(rest.length ? `${metric}{${rest.join(";")}}` : metric);
  return { host, service, item, key: seriesKey(host, service, item) };
}

/**
 * The PromQL selector of a remote-written item, mapSeries backwards:
 * host `db1:9100`, service `node`, item `node_cpu_seconds_total{cpu=0;mode=idle}` →
 * `node_cpu_seconds_total{instance="db1:9100",job="node",cpu="0",mode="idle"}`. Names that
 * mapSeries had to change (forbidden characters, cut) select nothing: give those a selector by hand.
 */
export function prometheusSelector(host: string, service: string, item: string, mapping: SeriesMapping = DEFAULT_SERIES_MAPPING): string {
  const match = /^([^{]*)(?:\{(.*)\})?$/.exec(item);
  const metric = match?.[1] || item;
  const pairs: [string, string][] = [
    [mapping.hostLabel, host],
    [mapping.serviceLabel, service],
  ];
  if (host === MISSING_LABEL_NAME) pairs.shift();
  if (service === MISSING_LABEL_NAME) pairs.splice(pairs.length - 1, 1);
  for (const pair of (match?.[2] ?? "").split(";").filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at > 0) pairs.push([pair.slice(0, at), pair.slice(at + 1)]);
  }
  return `${metric}{${pairs.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(",")}}`;
}
