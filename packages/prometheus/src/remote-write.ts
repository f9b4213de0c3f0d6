import protobuf from "protobufjs";
import snappy from "snappyjs";

/**
 * Prometheus remote write 1.0: a snappy-compressed (block format) protobuf `prometheus.WriteRequest`.
 * Only what Tidemark stores is declared (labels and float samples); exemplars, native histograms
 * and metadata are skipped by the decoder as unknown fields.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: "repeated", type: "TimeSeries", id: 1 } } },
        TimeSeries: {
          fields: {
            labels: { rule: "repeated", type: "Label", id: 1 },
            samples: { rule: "repeated", type: "Sample", id: 2 },
          },
        },
        Label: { fields: { name: { type: "string", id: 1 }, value: { type: "string", id: 2 } } },
        Sample: { fields: { value: { type: "double", id: 1 }, timestamp: { type: "int64", id: 2 } } },
      },
    },
  },
});
const WriteRequest = root.lookupType("prometheus.WriteRequest");

export interface RemoteSample {
  /** Epoch milliseconds. */
  ts: number;
  value: number;
}

export interface RemoteSeries {
  labels: Record<string, string>;
  samples: RemoteSample[];
}

/** Something wrong with what the client sent: the status to answer and a sentence saying what. */
export class RemoteWriteError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

export interface RemoteWriteLimits {
  /** Largest decompressed message accepted (snappy's header says the size before anything is inflated). */
  maxDecodedBytes: number;
  /** Most samples in one request. */
  maxSamples: number;
}

/** Snappy's block format starts with the uncompressed length as a varint. */
function declaredLength(bytes: Uint8Array): number | null {
  let result = 0;
  for (let i = 0, shift = 0; i < bytes.length && shift < 35; i++, shift += 7) {
    const byte = bytes[i] as number;
    result += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return result;
  }
  return null;
}

interface DecodedSeries {
  labels?: { name?: string; value?: string }[];
  samples?: { value?: number; timestamp?: number }[];
}

/**
 * The series of one remote-write body. Throws RemoteWriteError for a body that is not snappy,
 * not a WriteRequest, or over the limits — checked before inflating, so a small body claiming a
 * huge size costs nothing.
 */
export function decodeWriteRequest(body: Uint8Array, limits: RemoteWriteLimits): RemoteSeries[] {
  const length = declaredLength(body);
  if (length === null) throw new RemoteWriteError(400, "the body is not snappy-compressed (block format, as Prometheus sends it)");
  if (length > limits.maxDecodedBytes) {
    throw new RemoteWriteError(
      413,
      `the request decompresses to ${length} bytes, more than ${limits.maxDecodedBytes}: lower queue_config.max_samples_per_send`,
    );
  }
  let raw: Uint8Array;
  try {
    raw = snappy.uncompress(body, limits.maxDecodedBytes);
  } catch (error) {
    throw new RemoteWriteError(400, `the body is not valid snappy data: ${error instanceof Error ? error.message : String(error)}`);
  }
  let message: { timeseries?: DecodedSeries[] };
  try {
    message = WriteRequest.toObject(WriteRequest.decode(raw), { longs: Number, defaults: false }) as typeof message;
  } catch (error) {
    throw new RemoteWriteError(
      400,
      `the body is not a remote-write WriteRequest: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const series: RemoteSeries[] = [];
  let samples = 0;
  for (const ts of message.timeseries ?? []) {
    const labels: Record<string, string> = {};
    for (const label of ts.labels ?? []) if (label.name) labels[label.name] = label.value ?? "";
    const points = (ts.samples ?? []).map((s) => ({ ts: s.timestamp ?? 0, value: s.value ?? 0 }));
    samples += points.length;
    if (samples > limits.maxSamples) {
      throw new RemoteWriteError(413, `a request may carry at most ${limits.maxSamples} samples: lower queue_config.max_samples_per_send`);
    }
    series.push({ labels, samples: points });
  }
  return series;
}

/** The encoder, for tests and tools that write to Tidemark the way Prometheus does. */
export function encodeWriteRequest(series: readonly RemoteSeries[]): Uint8Array {
  const message = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      labels: Object.entries(s.labels).map(([name, value]) => ({ name, value })),
      samples: s.samples.map((p) => ({ value: p.value, timestamp: p.ts })),
    })),
  });
  return snappy.compress(WriteRequest.encode(message).finish());
}
