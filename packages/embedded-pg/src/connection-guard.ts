import { concat, errorResponse, frontendType, queryText, type ShimmedBackend, type StreamOptions } from "./protocol-shim.ts";
import { SCRAM_MECHANISM, ScramError, type ScramExchange, scramCredentials, scramServerFinal, scramServerFirst } from "./scram.ts";

/**
 * What pglite-socket shares between its connections, made safe for them (one PGlite backend
 * serves every connection):
 *
 * - **Password.** PGlite accepts any password. The guard answers each startup itself with a
 *   SCRAM-SHA-256 exchange (scram.ts: the password never travels, the client checks the server
 *   knows it too), and only then replays the startup to PGlite. A wrong password gets FATAL 28P01
 *   and the connection is closed; a client that never answers never touches the backend. Startup parameters other
 *   than user, database, application_name and client_encoding (say `options=-c search_path=`) are
 *   dropped: they would set the shared session for everyone.
 * - **Session settings.** A connection's `SET`/`set_config(…, false)` would reach every other
 *   connection. On every hand-over of the backend from one connection to another, the settings the
 *   previous one changed (`pg_settings.source = 'session'`) are saved as its own and the server's
 *   defaults are restored, and the next connection's own saved settings are applied again. Only a
 *   connection that ran a statement that can change settings (SET but not SET LOCAL, RESET, DISCARD, set_config)
 *   costs these extra queries.
 * - **Session state.** Temporary tables, named prepared statements, cursors, session advisory locks
 *   and LISTEN would be seen (and used) by every other connection. When the backend passes from a
 *   connection that may have made some (it ran a statement naming them, or prepared a named
 *   statement) to another, they are discarded (`DISCARD ALL` less its `RESET ALL`, which the
 *   settings above handle): they last as long as the connection keeps the backend — its
 *   transaction, or its run of statements — as with PgBouncer's transaction pooling.
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

type Phase = "new" | "sasl-initial" | "sasl-final" | "ready" | "rejected";

interface Connection {
  phase: Phase;
  user: string;
  /** The SCRAM exchange under way (phase sasl-final). */
  scram: ScramExchange | null;
  /** The startup message as replayed to PGlite (only the allowed parameters). */
  startup: Uint8Array | null;
  /** Ran something that may have changed session settings since it last got the backend. */
  dirty: boolean;
  /** Its own session settings (those that differ from the server's), applied when it gets the backend. */
  settings: Map<string, string> | null;
  /** Ran something that may have left temp tables, prepared statements, cursors, advisory locks or LISTENs. */
  madeSessionState: boolean;
}

const ALLOWED_STARTUP_PARAMETERS = new Set(["user", "database", "application_name", "client_encoding"]);

/** A statement that can change session settings: SET/RESET/DISCARD at a statement start, or set_config(). */
const CHANGES_SETTINGS = /(^|;)\s*(set(?!\s+local\b)|reset|discard)\b|\bset_config\s*\(/i;

const SETTINGS_QUERY = "SELECT name, setting FROM pg_settings WHERE source = 'session'";

/** A statement that can leave session state behind (session-level advisory locks, not the _xact_ ones). */
const MAKES_SESSION_STATE = /\b(temp|temporary|pg_temp|prepare|declare|listen)\b|\bpg_(try_)?advisory_lock(_shared)?\s*\(/i;

/** DISCARD ALL without RESET ALL (settings are kept per connection) nor SET SESSION AUTHORIZATION (one role). */
const DISCARD_SESSION_STATE = "CLOSE ALL; DEALLOCATE ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES";

export function installConnectionGuard(server: unknown, backend: ShimmedBackend, opts: GuardOptions): { stop(): void } {
  const internals = server as SocketServerInternals;
  const owners = new WeakMap<Uint8Array, number>();
  const connections = new Map<number, Connection>();
  const inner = backend.execProtocolRawStream.bind(backend);
  const log = opts.log ?? (() => {});
  const credentials = scramCredentials(opts.password);

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
    if (previous?.madeSessionState) {
      await query(DISCARD_SESSION_STATE);
      previous.madeSessionState = false;
    }
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
      connection = { phase: "new", user: "", scram: null, startup: null, dirty: false, settings: null, madeSessionState: false };
      connections.set(handlerId, connection);
    }
    const type = frontendType(message);

    const refuse = (why: string) => {
      connection.phase = "rejected";
      emit(errorResponse(`password authentication failed for user "${connection.user}"`, "28P01", "FATAL"));
      closeConnection(handlerId, why);
    };

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
      connection.phase = "sasl-initial";
      emit(authentication(10, Buffer.from(`${SCRAM_MECHANISM}\0\0`)));
      return;
    }
    if (connection.phase === "sasl-initial") {
      const initial = type === "p" ? saslInitialResponse(message) : null;
      if (!initial || initial.mechanism !== SCRAM_MECHANISM) return refuse(`no ${SCRAM_MECHANISM} initial response`);
      try {
        connection.scram = scramServerFirst(credentials, initial.data);
      } catch (error) {
        if (error instanceof ScramError) return refuse(error.message);
        throw error;
      }
      connection.phase = "sasl-final";
      emit(authentication(11, Buffer.from(connection.scram.serverFirst)));
      return;
    }
    if (connection.phase === "sasl-final") {
      let serverFinal: string | null = null;
      try {
        if (type === "p" && connection.scram) serverFinal = scramServerFinal(credentials, connection.scram, messageBody(message));
      } catch (error) {
        if (!(error instanceof ScramError)) throw error;
      }
      if (serverFinal === null) return refuse("wrong password");
      emit(authentication(12, Buffer.from(serverFinal)));
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
      if (type === "Q" || type === "P") {
        const text = queryText(message, type);
        if (CHANGES_SETTINGS.test(text)) connection.dirty = true;
        // A named statement (Parse with a name) outlives its turn, like PREPARE.
        if (MAKES_SESSION_STATE.test(text) || (type === "P" && message[5] !== 0)) connection.madeSessionState = true;
      }
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

/** An Authentication message: 10 SASL (mechanisms), 11 SASLContinue, 12 SASLFinal. */
function authentication(code: 10 | 11 | 12, data: Buffer): Uint8Array {
  const out = Buffer.alloc(9 + data.length);
  out.write("R", 0);
  out.writeInt32BE(8 + data.length, 1);
  out.writeInt32BE(code, 5);
  data.copy(out, 9);
  return new Uint8Array(out);
}

/** A message's body after its type and length (SASLResponse: the SCRAM message itself). */
function messageBody(message: Uint8Array): string {
  return Buffer.from(message.buffer, message.byteOffset + 5, Math.max(0, message.byteLength - 5)).toString("utf8");
}

/** SASLInitialResponse: the mechanism (NUL-terminated), then the length of the client's first message and the message. */
function saslInitialResponse(message: Uint8Array): { mechanism: string; data: string } | null {
  const mechanism = cString(message, 5);
  const at = 5 + Buffer.byteLength(mechanism) + 1;
  if (at + 4 > message.length) return null;
  const length = readInt32(message, at);
  if (length < 0 || at + 4 + length > message.length) return null;
  return { mechanism, data: Buffer.from(message.buffer, message.byteOffset + at + 4, length).toString("utf8") };
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

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
