import { describe, expect, it } from "vitest";
import { BackendMessageScanner, errorResponse, installProtocolShim, readyForQuery } from "../src/protocol-shim.ts";

const msg = (type: string, body: number[] = []) => {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
};
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
};
const text = (s: string) => [...new TextEncoder().encode(s), 0];

/** A backend that answers each frontend type with canned bytes. */
function fakeBackend(answers: Record<string, Uint8Array>) {
  const seen: string[] = [];
  return {
    seen,
    db: {
      async execProtocolRaw(m: Uint8Array) {
        const t = m[0] === 0 ? "startup" : String.fromCharCode(m[0] ?? 0);
        seen.push(t);
        return answers[t] ?? new Uint8Array(0);
      },
    },
  };
}

describe("protocol shim", () => {
  it("is bound to the client between Parse and Sync, free after ReadyForQuery 'I'", async () => {
    const { db } = fakeBackend({ P: msg("1"), B: msg("2"), E: msg("C", text("SELECT 1")), S: readyForQuery("I") });
    const s = installProtocolShim(db);
    expect(s.isInTransaction()).toBe(false);
    for (const t of ["P", "B", "E"]) {
      await s.execProtocolRawStream(msg(t));
      expect(s.isInTransaction(), `after ${t}`).toBe(true);
      expect(s.protocolState.syncPending).toBe(true);
    }
    await s.execProtocolRawStream(msg("S"));
    expect(s.isInTransaction()).toBe(false);
  });

  it("tracks 'T' and 'E' from ReadyForQuery until 'I'", async () => {
    const answers: Record<string, Uint8Array> = { Q: cat(msg("C", text("BEGIN")), readyForQuery("T")) };
    const s = installProtocolShim(fakeBackend(answers).db);
    await s.execProtocolRawStream(msg("Q"));
    expect(s.protocolState.status).toBe("T");
    answers.Q = cat(errorResponse("boom"), readyForQuery("E"));
    await s.execProtocolRawStream(msg("Q"));
    expect(s.protocolState.status).toBe("E");
    expect(s.isInTransaction()).toBe(true);
    answers.Q = cat(msg("C", text("ROLLBACK")), readyForQuery("I"));
    await s.execProtocolRawStream(msg("Q"));
    expect(s.isInTransaction()).toBe(false);
  });

  it("stays bound after the startup message until the password exchange reaches ReadyForQuery", async () => {
    const s = installProtocolShim(fakeBackend({ startup: msg("R", [0, 0, 0, 3]), p: readyForQuery("I") }).db);
    await s.execProtocolRawStream(new Uint8Array([0, 0, 0, 8, 0, 3, 0, 0]));
    expect(s.isInTransaction()).toBe(true);
    await s.execProtocolRawStream(msg("p", text("pw")));
    expect(s.isInTransaction()).toBe(false);
  });

  it("hands out copies of the answer and passes every byte through", async () => {
    const answer = cat(msg("1"), msg("2"));
    const s = installProtocolShim(fakeBackend({ P: answer }).db);
    const got: Uint8Array[] = [];
    await s.execProtocolRawStream(msg("P"), { onRawData: (d) => got.push(d) });
    expect(got).toEqual([answer]);
    expect(got[0]).not.toBe(answer);
  });

  it("does not pass Terminate to the shared backend", async () => {
    const { db, seen } = fakeBackend({});
    await installProtocolShim(db).execProtocolRawStream(msg("X"));
    expect(seen).toEqual([]);
  });

  it("refuses COPY FROM STDIN locally with an error and ReadyForQuery", async () => {
    const { db, seen } = fakeBackend({});
    const out: Uint8Array[] = [];
    await installProtocolShim(db).execProtocolRawStream(msg("Q", text("copy t from stdin")), {
      onRawData: (d) => out.push(d),
    });
    expect(seen).toEqual([]);
    expect(String.fromCharCode(out[0]?.[0] ?? 0)).toBe("E");
    expect(out[0]?.slice(-6)).toEqual(readyForQuery("I"));
  });

  it("answers an error (not a throw) when the backend throws, so the socket queue keeps going", async () => {
    const s = installProtocolShim({
      execProtocolRaw: async () => {
        throw new Error("wasm abort");
      },
    });
    const out: Uint8Array[] = [];
    await s.execProtocolRawStream(msg("Q", text("select 1")), { onRawData: (d) => out.push(d) });
    expect(new TextDecoder().decode(out[0])).toContain("wasm abort");
    expect(out[0]?.slice(-6)).toEqual(readyForQuery("I"));
  });

  it("closes a pending extended sequence before PGlite's own exec (ROLLBACK on disconnect)", async () => {
    const { db, seen } = fakeBackend({ P: msg("1"), S: readyForQuery("I") });
    const withExec = Object.assign(db, { exec: async (_q: string) => [] });
    const s = installProtocolShim(withExec);
    await s.execProtocolRawStream(msg("P"));
    await s.exec?.("ROLLBACK");
    expect(seen).toEqual(["P", "S"]);
    expect(s.isInTransaction()).toBe(false);
  });

  it("scanner finds ReadyForQuery split across chunks", () => {
    const statuses: string[] = [];
    const sc = new BackendMessageScanner((st) => statuses.push(st));
    const all = cat(msg("D", [0, 1, 0, 0, 0, 1, 65]), msg("C", text("SELECT 1")), readyForQuery("T"));
    for (let i = 0; i < all.length; i += 3) sc.push(all.subarray(i, i + 3));
    expect(statuses).toEqual(["T"]);
  });
});
