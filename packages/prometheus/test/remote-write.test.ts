import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { remoteWriteResults } from "../src/remote-results.ts";
import { decodeWriteRequest, encodeWriteRequest, type RemoteSeries, RemoteWriteError } from "../src/remote-write.ts";
import { mapSeries, prometheusSelector, seriesMappingQuery, tidemarkName } from "../src/series-mapping.ts";

const LIMITS = { maxDecodedBytes: 1 << 20, maxSamples: 1000 };
const T0 = Date.UTC(2026, 10, 24);

describe("mapSeries", () => {
  it.each([
    [{ __name__: "node_load1", instance: "db1:9100", job: "node" }, "db1:9100", "node", "node_load1", "db1:9100-node-node_load1"],
    [
      { __name__: "node_cpu_seconds_total", instance: "db1:9100", job: "node", mode: "idle", cpu: "0" },
      "db1:9100",
      "node",
      "node_cpu_seconds_total{cpu=0;mode=idle}",
      "db1:9100-node-node_cpu_seconds_total{cpu=0;mode=idle}",
    ],
    [{ __name__: "up", job: "api-gw" }, "prometheus", "api-gw", "up", "prometheus-api\\-gw-up"],
    [
      { __name__: "http_requests", instance: "web 1", job: "web", path: "/a,b" },
      "web_1",
      "web",
      "http_requests{path=/a_b}",
      "web_1-web-http_requests{path=/a_b}",
    ],
  ])("%o → %s / %s / %s", (labels, host, service, item, key) => {
    expect(mapSeries(labels)).toEqual({ host, service, item, key });
  });

  it("selects a mapped series again in PromQL", () => {
    const mapped = mapSeries({ __name__: "node_cpu_seconds_total", instance: "db1:9100", job: "node", mode: "idle", cpu: "0" });
    expect(prometheusSelector(mapped.host, mapped.service, mapped.item)).toBe(
      'node_cpu_seconds_total{instance="db1:9100",job="node",cpu="0",mode="idle"}',
    );
    expect(prometheusSelector("prometheus", "api", "up")).toBe('up{job="api"}');
  });

  it.each([
    [{ hostLabel: "instance", serviceLabel: "job" }, ""],
    [{ hostLabel: "cluster", serviceLabel: "job" }, "?host=cluster"],
    [{ hostLabel: "cluster", serviceLabel: "app" }, "?host=cluster&service=app"],
  ])("puts a mapping into the write URL's query: %o → %s", (mapping, query) => {
    expect(seriesMappingQuery(mapping)).toBe(query);
  });

  it("takes other labels for host and service when told", () => {
    expect(
      mapSeries({ __name__: "depth", cluster: "eu", app: "billing", instance: "x" }, { hostLabel: "cluster", serviceLabel: "app" }),
    ).toEqual({
      host: "eu",
      service: "billing",
      item: "depth{instance=x}",
      key: "eu-billing-depth{instance=x}",
    });
  });

  it("always gives names Tidemark accepts, distinct for distinct over-long texts", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400 }), (a, b) => {
        const name = tidemarkName(a);
        expect(name).toMatch(/^[^\s[\]()$,]{1,128}$/);
        if (a.length > 128 && b.length > 128 && a !== b && a.slice(0, 119) === b.slice(0, 119)) expect(tidemarkName(b)).not.toBe(name);
      }),
    );
  });
});

describe("decodeWriteRequest", () => {
  it("reads back what Prometheus' encoding wrote, for any labels and samples", () => {
    const series = fc.array(
      fc.record({
        labels: fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.string({ maxLength: 20 }), { maxKeys: 5 }),
        samples: fc.array(fc.record({ ts: fc.integer({ min: T0, max: T0 + 1e9 }), value: fc.double({ noNaN: true }) }), { maxLength: 5 }),
      }),
      { maxLength: 10 },
    );
    fc.assert(
      fc.property(series, (input: RemoteSeries[]) => {
        expect(decodeWriteRequest(encodeWriteRequest(input), LIMITS)).toEqual(input);
      }),
    );
  });

  it.each([
    ["an empty body", new Uint8Array(), 400, /snappy/],
    ["snappy of something that is not protobuf", encodeRaw(new Uint8Array([0xff, 0xff, 0xff])), 400, /WriteRequest/],
    ["a body claiming a huge size", new Uint8Array([0xff, 0xff, 0xff, 0x7f]), 413, /decompresses/],
  ])("refuses %s with %i", (_name, body, status, message) => {
    const error = (() => {
      try {
        decodeWriteRequest(body, LIMITS);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RemoteWriteError);
    expect((error as RemoteWriteError).status).toBe(status);
    expect((error as RemoteWriteError).message).toMatch(message);
  });

  it("refuses more samples than the limit", () => {
    const body = encodeWriteRequest([
      { labels: { __name__: "x" }, samples: Array.from({ length: 11 }, (_, i) => ({ ts: T0 + i, value: i })) },
    ]);
    expect(() => decodeWriteRequest(body, { ...LIMITS, maxSamples: 10 })).toThrow(/at most 10 samples/);
  });
});

function encodeRaw(bytes: Uint8Array): Uint8Array {
  // A snappy block of one literal: length varint, tag (len-1)<<2, the bytes.
  return new Uint8Array([bytes.length, (bytes.length - 1) << 2, ...bytes]);
}

describe("remoteWriteResults", () => {
  it("skips staleness markers and samples outside 2000–2100, and stores ±Inf as a missing value", () => {
    const out = remoteWriteResults([
      {
        labels: { __name__: "m", instance: "h", job: "j" },
        samples: [
          { ts: T0, value: 1 },
          { ts: T0 + 1, value: Number.NaN },
          { ts: T0 + 2, value: Number.POSITIVE_INFINITY },
          { ts: 5, value: 3 },
        ],
      },
      { labels: { __name__: "gone", instance: "h", job: "j" }, samples: [{ ts: T0, value: Number.NaN }] },
    ]);
    expect(out).toEqual({
      results: [
        { key: "h-j-m", ts: T0, value: 1 },
        { key: "h-j-m", ts: T0 + 2, value: null },
      ],
      series: [{ host: "h", service: "j", item: "m", key: "h-j-m" }],
      staleMarkers: 2,
      outOfRange: 1,
    });
  });
});
