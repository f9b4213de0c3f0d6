/**
 * Adds `execProtocolRawStream` and `isInTransaction` to a PGlite-like object that only has
 * `execProtocolRaw`, the way `@electric-sql/pglite-socket` 0.2.x expects them.
 *
 * pglite-socket splits each client's byte stream into single frontend messages and queues them
 * one by one on the shared PGlite backend. Between two messages it asks `isInTransaction()`: when
 * true, only the connection that ran last may go next. So "in transaction" must mean "the backend
 * is bound to the last connection", which is the case when
 *  - the last ReadyForQuery said 'T' (in a transaction block) or 'E' (failed transaction), or
 *  - an extended-protocol sequence (Parse/Bind/Describe/Execute/Close/Flush) has been sent and
 *    its Sync has not yet been: otherwise another connection's Parse would replace the unnamed
 *    statement/portal in the middle of this one's sequence and both clients hang or get mixed up,
 *  - more generally, the last message sent has not led to a ReadyForQuery yet: the startup
 *    message is answered with a password request, and another connection's messages sent before
 *    that password get no answer at all (measured: a pool of 5 then hangs on its first queries).
 */

/** The part of PGlite the shim needs. */
export interface RawProtocolBackend {
  execProtocolRaw(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<Uint8Array>;
  exec?(query: string, options?: unknown): Promise<unknown>;
}

export interface StreamOptions {
  syncToFs?: boolean;
  onRawData?: (data: Uint8Array) => void;
}

export type TransactionStatus = "I" | "T" | "E";

export interface ShimmedBackend {
  execProtocolRawStream(message: Uint8Array, options?: StreamOptions): Promise<void>;
  isInTransaction(): boolean;
}

export interface ProtocolState {
  /** Transaction status from the last ReadyForQuery seen. */
  readonly status: TransactionStatus;
  /** An extended-protocol sequence was started and its Sync has not been sent yet. */
  readonly syncPending: boolean;
  /**
   * A message was sent whose cycle has not reached ReadyForQuery yet: the startup message
   * (the backend then waits for that client's password), an extended sequence, a COPY...
   */
  readonly awaitingReady: boolean;
}

export interface ShimOptions {
  log?: (msg: string) => void;
  /** Called for every message with its type, the backend message types answered and the state. */
  trace?: (line: string) => void;
}

/** Frontend message types that belong to an extended-protocol sequence ended by Sync ('S'). */
const EXTENDED = new Set(["P", "B", "D", "E", "C", "H"]);
const SYNC = "S";
const SIMPLE_QUERY = "Q";

const COPY_FROM_STDIN = /\bcopy\b[\s\S]*\bfrom\s+stdin\b/i;

/**
 * Walks backend messages (type byte + int32 length that counts itself) across chunks and reports
 * the status byte of every ReadyForQuery ('Z').
 */
export class BackendMessageScanner {
  private rest: Uint8Array = new Uint8Array(0);

  constructor(private readonly onReadyForQuery: (status: TransactionStatus) => void) {}

  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.rest.length > 0) buf = concat(this.rest, chunk);
    let off = 0;
    while (buf.length - off >= 5) {
      const len = readInt32(buf, off + 1);
      if (len < 4) {
        // Not a protocol stream we understand: drop it rather than loop forever.
        off = buf.length;
        break;
      }
      const end = off + 1 + len;
      if (end > buf.length) break;
      if (buf[off] === 0x5a /* Z */ && len === 5) {
        const s = String.fromCharCode(buf[off + 5] ?? 0x49);
        if (s === "I" || s === "T" || s === "E") this.onReadyForQuery(s);
      }
      off = end;
    }
    this.rest = off >= buf.length ? new Uint8Array(0) : buf.slice(off);
  }
}

function readInt32(buf: Uint8Array, off: number): number {
  return (((buf[off] ?? 0) << 24) | ((buf[off + 1] ?? 0) << 16) | ((buf[off + 2] ?? 0) << 8) | (buf[off + 3] ?? 0)) >>> 0;
}

/** The type byte of a frontend message, or "" for the untyped startup/SSL/cancel messages. */
export function frontendType(message: Uint8Array): string {
  const first = message[0];
  if (first === undefined || first === 0) return "";
  return String.fromCharCode(first);
}

/** Text of a Query ('Q') message or the query of a Parse ('P') message. */
export function queryText(message: Uint8Array, type: string): string {
  let start = 5;
  if (type === "P") {
    // statement name, NUL-terminated, comes first
    while (start < message.length && message[start] !== 0) start++;
    start++;
  }
  let end = start;
  while (end < message.length && message[end] !== 0) end++;
  return new TextDecoder().decode(message.subarray(start, end));
}

/** Builds a backend ErrorResponse ('E'); FATAL tells the client its connection is over. */
export function errorResponse(message: string, code = "XX000", severity: "ERROR" | "FATAL" = "ERROR"): Uint8Array {
  const enc = new TextEncoder();
  const fields = [
    ["S", severity],
    ["V", severity],
    ["C", code],
    ["M", message],
  ];
  const parts: Uint8Array[] = fields.map(([k, v]) => enc.encode(`${k}${v}\0`));
  const bodyLen = parts.reduce((n, p) => n + p.length, 0) + 1;
  const out = new Uint8Array(1 + 4 + bodyLen);
  out[0] = 0x45;
  writeInt32(out, 1, 4 + bodyLen);
  let off = 5;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  out[off] = 0;
  return out;
}

/** Builds a backend ReadyForQuery ('Z'). */
export function readyForQuery(status: TransactionStatus): Uint8Array {
  const out = new Uint8Array(6);
  out[0] = 0x5a;
  writeInt32(out, 1, 5);
  out[5] = status.charCodeAt(0);
  return out;
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function writeInt32(buf: Uint8Array, off: number, v: number): void {
  buf[off] = (v >>> 24) & 0xff;
  buf[off + 1] = (v >>> 16) & 0xff;
  buf[off + 2] = (v >>> 8) & 0xff;
  buf[off + 3] = v & 0xff;
}

/**
 * Installs the two methods on `db` (in place) and returns it typed with them, plus a view of
 * the tracked state. Also wraps `execProtocolRaw` itself so that traffic that bypasses the
 * stream method (PGlite's own `exec`/`query`, e.g. pglite-socket's ROLLBACK on disconnect)
 * updates the tracked state too, and wraps `exec` so that it first closes an extended-protocol
 * sequence left open by a client that disconnected before its Sync.
 */
export function installProtocolShim<T extends RawProtocolBackend>(
  db: T,
  opts: ShimOptions = {},
): T & ShimmedBackend & { protocolState: ProtocolState } {
  const state = { status: "I" as TransactionStatus, syncPending: false, awaitingReady: false };
  /** A Parse was refused locally: swallow the rest of the sequence until its Sync. */
  let skipUntilSync = false;
  const scanner = new BackendMessageScanner((s) => {
    state.status = s;
    state.syncPending = false;
    state.awaitingReady = false;
  });

  const rawExec = db.execProtocolRaw.bind(db);

  const trackedExec = async (message: Uint8Array, options?: { syncToFs?: boolean }): Promise<Uint8Array> => {
    const type = frontendType(message);
    if (EXTENDED.has(type)) state.syncPending = true;
    else if (type === SYNC) state.syncPending = false;
    state.awaitingReady = true;
    const data = await rawExec(message, options);
    scanner.push(data);
    opts.trace?.(`${type || "startup"} (${message.length} B) -> ${backendTypes(data)} ${JSON.stringify(state)}`);
    return data;
  };
  db.execProtocolRaw = trackedExec;

  const origExec = db.exec?.bind(db);
  if (origExec) {
    db.exec = async (query: string, options?: unknown) => {
      if (state.syncPending) {
        opts.log?.("closing an extended-protocol sequence left without Sync");
        await trackedExec(new Uint8Array([0x53, 0, 0, 0, 4]), { syncToFs: false });
      }
      return origExec(query, options);
    };
  }

  const shimmed = db as T & ShimmedBackend & { protocolState: ProtocolState };

  shimmed.execProtocolRawStream = async (message: Uint8Array, options: StreamOptions = {}): Promise<void> => {
    const type = frontendType(message);
    const emit = (data: Uint8Array) => {
      // PGlite returns a view of a buffer it reuses on the next call: hand out a copy.
      if (data.length > 0) options.onRawData?.(data.slice());
    };

    if (skipUntilSync && type !== SYNC && EXTENDED.has(type)) return;
    if (type === SYNC) skipUntilSync = false;

    if (type === "X") {
      // Terminate from one client must not shut down the shared backend.
      return;
    }

    if ((type === SIMPLE_QUERY || type === "P") && COPY_FROM_STDIN.test(queryText(message, type))) {
      // COPY ... FROM STDIN crashes this PGlite build: refuse it with a clear error instead.
      const err = errorResponse("COPY ... FROM STDIN is not supported by the embedded server: use multi-row INSERT", "0A000");
      if (type === SIMPLE_QUERY) emit(concat(err, readyForQuery(state.status)));
      else {
        skipUntilSync = true;
        state.syncPending = true;
        emit(err);
      }
      return;
    }

    let data: Uint8Array;
    try {
      data = await trackedExec(message, { syncToFs: options.syncToFs });
    } catch (e) {
      // pglite-socket's queue stops for good if this throws: answer with an error instead.
      const msg = e instanceof Error ? e.message : String(e);
      opts.log?.(`backend failed on a '${type || "startup"}' message: ${msg}`);
      const err = errorResponse(`embedded server backend error: ${msg}`);
      emit(type === SYNC || type === SIMPLE_QUERY ? concat(err, readyForQuery(state.status)) : err);
      return;
    }
    emit(data);
  };

  shimmed.isInTransaction = () => state.syncPending || state.awaitingReady || state.status !== "I";

  Object.defineProperty(shimmed, "protocolState", { get: () => ({ ...state }), configurable: true });
  return shimmed;
}

/** "1", "2", "T", "DC", "Z"...: the type bytes of the backend messages in `b`. */
function backendTypes(b: Uint8Array): string {
  let off = 0;
  let out = "";
  while (off + 5 <= b.length) {
    out += String.fromCharCode(b[off] ?? 0);
    off += 1 + readInt32(b, off + 1);
  }
  return off === b.length ? out : `${out}+${b.length - off}B?`;
}
