import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { concat, errorResponse, frontendType, queryText, type ShimmedBackend, type StreamOptions } from "./protocol-shim.ts";

/**
 * What pglite-socket shares between its connections, made safe for them (one PGlite backend
 * serves every connection):
 *
 * - **Password.** PGlite accepts any password. The guard answers each startup itself with an MD5
 *   password request (a salt of its own), checks the answer against the server's password, and
 *   only then replays the startup to PGlite. A wrong password gets FATAL 28P01 and the connection
 *   is closed; a client that never answers never touches the backend. Startup parameters other
 *   than user, database, application_name and client_encoding (say `options=-c search_path=`) are
 *   dropped: they would set the shared session for everyone.
 * - **Session settings.** A connection's `SET`/`set_config(…, false)` would reach every other
 *   connection. On every hand-over of the backend from one connection to another, the settings the
 *   previous one changed (`pg_settings.source = 'session'`) are saved as its own and the server's
 *   defaults are restored, and the next connection's own saved settings are applied again. Only a
 *   connection that ran a statement that can change settings (SET but not SET LOCAL, RESET, DISCARD, set_config)
 *   costs these extra queries.
 * - **Idle transactions.** A connection holding the backend (inside BEGIN, or in the middle of an
 *   extended-protocol sequence) that sends nothing for `idleInTransactionMs` is closed, which rolls
 *   its transaction back (as PostgreSQL's idle_in_transaction_session_timeout does).
 */

export interface GuardOptions {
  password: string;
  /** Close a connection that holds the backend idle this long (ms). */
  idleInTransactionMs: number;
  log?: (msg: string) => void;
}

/** The parts of pglite-socket's server the guard hooks into (private there, stable in 0.2.x). */
interface SocketServerInternals {
  queryQueue: { enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> };
  handlers: Set<{ handlerId: number; detach(close?: boolean): Promise<unknown> }>;
}

type Phase = "new" | "password" | "ready" | "rejected";

interface Connection {
  phase: Phase;
  user: string;
  salt: Buffer;
  /** The startup message as replayed to PGlite (only the allowed parameters). */
  startup: Uint8Array | null;
  /** Ran something that may have changed session settings since it last got the backend. */
  dirty: boolean;
  /** Its own session settings (those that differ from the server's), applied when it gets the backend. */
  settings: Map<string, string> | null;
}

const ALLOWED_STARTUP_PARAMETERS = new Set(["user", "database", "application_name", "client_encoding"]);

/** A statement that can change session settings: SET/RESET/DISCARD at a statement start, or set_config(). */
const CHANGES_SETTINGS = /(^|;)\s*(set(?!\s+local\b)|reset|discard)\b|\bset_config\s*\(/i;

const SETTINGS_QUERY = "SELECT name, setting FROM pg_settings WHERE source = 'session'";

export function installConnectionGuard(server: unknown, backend: ShimmedBackend, opts: GuardOptions): { stop(): void } {
  const internals = server as SocketServerInternals;
  const owners = new WeakMap<Uint8Array, number>();
  const connections = new Map<number, Connection>();
  const inner = backend.execProtocolRawStream.bind(backend);
  const log = opts.log ?? (() => {});

  /** The server's own session settings (PGlite sets some at start), restored at every hand-over. */
  let defaults: Map<string, string> | null = null;
  /** The connection that ran last, and whether the backend now holds settings that are not the defaults. */
  let lastRan: number | null = null;
  let backendCustomised = false;
  let executing = false;
  let lastActivity = Date.now();

  const enqueue = internals.queryQueue.enqueue.bind(internals.queryQueue);
  internals.queryQueue.enqueue = (handlerId, message, onData) => {
    owners.set(message, handlerId);
    return enqueue(handlerId, message, onData);
  };

  /** Runs one simple query on the backend (inside the queue's exclusive turn) and returns its rows. */
  async function query(text: string): Promise<string[][]> {
    let out: Uint8Array = new Uint8Array(0);
    await inner(textMessage("Q", text), {
      onRawData: (data) => {
        out = concat(out, data);
      },
    });
    return dataRows(out);
  }

  async function sessionSettings(): Promise<Map<string, string>> {
    return new Map((await query(SETTINGS_QUERY)).map(([name, value]) => [name ?? "", value ?? ""]));
  }

  /** Settings that differ from the server's defaults. */
  function customOf(snapshot: Map<string, string>, base: Map<string, string>): Map<string, string> {
    const custom = new Map<string, string>();
    for (const [name, value] of snapshot) if (base.get(name) !== value) custom.set(name, value);
    for (const name of base.keys()) if (!snapshot.has(name)) custom.set(name, "");
    return custom;
  }

  async function handOver(to: number): Promise<void> {
    if (lastRan === to) return;
    defaults ??= await sessionSettings();
    const previous = lastRan === null ? undefined : connections.get(lastRan);
    lastRan = to;
    let toReset: Iterable<string> = previous?.settings?.keys() ?? [];
    if (previous?.dirty) {
      const custom = customOf(await sessionSettings(), defaults);
      previous.settings = custom.size > 0 ? custom : null;
      previous.dirty = false;
      toReset = custom.keys();
      backendCustomised = custom.size > 0;
    }
    const wanted = connections.get(to)?.settings ?? null;
    if (!backendCustomised && !wanted) return;
    const names = new Set([...toReset, ...(wanted?.keys() ?? [])]);
    const statements = [...names].map((name) => {
      const value = wanted?.get(name) ?? defaults?.get(name);
      return value === undefined ? `RESET ${quoteIdent(name)}` : `SELECT set_config(${quoteLiteral(name)}, ${quoteLiteral(value)}, false)`;
    });
    if (statements.length > 0) await query(statements.join("; "));
    backendCustomised = wanted !== null;
  }

  function closeConnection(handlerId: number, why: string): void {
    for (const handler of internals.handlers) {
      if (handler.handlerId === handlerId) {
        log(`closing connection #${handlerId}: ${why}`);
        void handler.detach(true).catch(() => {});
      }
    }
  }

  backend.execProtocolRawStream = async (message: Uint8Array, options: StreamOptions = {}): Promise<void> => {
    const handlerId = owners.get(message);
    // The guard's own queries and PGlite's internal traffic carry no owner.
    if (handlerId === undefined) return inner(message, options);
    const emit = (data: Uint8Array) => options.onRawData?.(data);
    let connection = connections.get(handlerId);
    if (!connection) {
      connection = { phase: "new", user: "", salt: randomBytes(4), startup: null, dirty: false, settings: null };
      connections.set(handlerId, connection);
    }
    const type = frontendType(message);

    if (connection.phase === "rejected") return;
    if (connection.phase === "new") {
      const parameters = startupParameters(message);
      if (type !== "" || !parameters) {
        connection.phase = "rejected";
        emit(errorResponse("expected a startup message", "08P01", "FATAL"));
        closeConnection(handlerId, "no startup message");
        return;
      }
      connection.user = parameters.get("user") ?? "";
      connection.startup = startupMessage(parameters);
      connection.phase = "password";
      emit(md5PasswordRequest(connection.salt));
      return;
    }
    if (connection.phase === "password") {
      const answer = type === "p" ? cString(message, 5) : null;
      if (answer === null || !sameText(answer, md5Answer(opts.password, connection.user, connection.salt))) {
        connection.phase = "rejected";
        emit(errorResponse(`password authentication failed for user "${connection.user}"`, "28P01", "FATAL"));
        closeConnection(handlerId, "wrong password");
        return;
      }
      executing = true;
      try {
        await handOver(handlerId);
        // PGlite wants its own startup and (any) password: replay them, pass on what follows.
        await inner(connection.startup ?? new Uint8Array(0), {});
        await inner(textMessage("p", "md5"), options);
      } finally {
        executing = false;
        lastActivity = Date.now();
      }
      connection.phase = "ready";
      return;
    }

    executing = true;
    try {
      await handOver(handlerId);
      if ((type === "Q" || type === "P") && CHANGES_SETTINGS.test(queryText(message, type))) connection.dirty = true;
      await inner(message, options);
    } finally {
      executing = false;
      lastActivity = Date.now();
    }
  };

  const sweep = setInterval(
    () => {
      const alive = new Set([...internals.handlers].map((h) => h.handlerId));
      // The last one stays known, gone or not: the next hand-over needs to know what it changed.
      for (const id of connections.keys()) if (!alive.has(id) && id !== lastRan) connections.delete(id);
      if (lastRan !== null && backend.isInTransaction() && !executing && Date.now() - lastActivity > opts.idleInTransactionMs) {
        closeConnection(lastRan, `idle for over ${opts.idleInTransactionMs} ms while holding the backend (its transaction is rolled back)`);
      }
    },
    Math.min(1000, Math.max(50, opts.idleInTransactionMs / 4)),
  );
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}

/** The startup message's parameters, or null when it is not a protocol 3.0 startup message. */
function startupParameters(message: Uint8Array): Map<string, string> | null {
  if (message.length < 8 || readInt32(message, 4) !== 196608) return null;
  const parameters = new Map<string, string>();
  let offset = 8;
  while (offset < message.length && message[offset] !== 0) {
    const key = cString(message, offset);
    offset += Buffer.byteLength(key) + 1;
    const value = cString(message, offset);
    offset += Buffer.byteLength(value) + 1;
    parameters.set(key, value);
  }
  return parameters;
}

function startupMessage(parameters: Map<string, string>): Uint8Array {
  const parts: Buffer[] = [];
  for (const [key, value] of parameters) {
    if (ALLOWED_STARTUP_PARAMETERS.has(key)) parts.push(Buffer.from(`${key}\0${value}\0`));
  }
  const body = Buffer.concat([...parts, Buffer.from([0])]);
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(196608, 4);
  body.copy(out, 8);
  return new Uint8Array(out);
}

function md5PasswordRequest(salt: Buffer): Uint8Array {
  const out = Buffer.alloc(13);
  out.write("R", 0);
  out.writeInt32BE(12, 1);
  out.writeInt32BE(5, 5);
  salt.copy(out, 9);
  return new Uint8Array(out);
}

function md5Answer(password: string, user: string, salt: Buffer): string {
  const inner = createHash("md5")
    .update(password + user)
    .digest("hex");
  return `md5${createHash("md5")
    .update(Buffer.concat([Buffer.from(inner), salt]))
    .digest("hex")}`;
}

/** A frontend message of `type` whose body is one NUL-terminated string (PasswordMessage 'p', Query 'Q'). */
function textMessage(type: "p" | "Q", text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0);
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return new Uint8Array(out);
}

/** The text columns of every DataRow ('D') in a backend response. */
function dataRows(response: Uint8Array): string[][] {
  const buf = Buffer.from(response.buffer, response.byteOffset, response.byteLength);
  const rows: string[][] = [];
  let offset = 0;
  while (offset + 5 <= buf.length) {
    const length = buf.readInt32BE(offset + 1);
    if (buf[offset] === 0x44 /* D */) {
      const columns = buf.readInt16BE(offset + 5);
      let at = offset + 7;
      const row: string[] = [];
      for (let i = 0; i < columns; i++) {
        const size = buf.readInt32BE(at);
        at += 4;
        row.push(size < 0 ? "" : buf.toString("utf8", at, at + size));
        at += Math.max(size, 0);
      }
      rows.push(row);
    }
    offset += 1 + length;
  }
  return rows;
}

function cString(message: Uint8Array, start: number): string {
  let end = start;
  while (end < message.length && message[end] !== 0) end++;
  return Buffer.from(message.buffer, message.byteOffset + start, end - start).toString("utf8");
}

function readInt32(buf: Uint8Array, offset: number): number {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).readInt32BE(offset);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
