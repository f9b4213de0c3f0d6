import net from "node:net";
import { ingestResponse } from "@tidemark/api/http";
import { connectDatabase, currentDatabaseInfo, type Database } from "@tidemark/db/client";
import { testDatabase, uncheckedDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDatabase } from "../../src/server/database.ts";
import { healthResponse } from "../../src/server/health-response.ts";
import { trpcResponse } from "../../src/server/trpc-response.ts";

/**
 * With the database down the routes answer 503 with Retry-After, whether the process never
 * connected (connection refused) or its pool waits on a server that accepted and went silent.
 */

let silent: net.Server;
let silentDb: Database;
let live: Database;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  live = await testDatabase();
  silent = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as net.AddressInfo;
  const url = `postgres://nobody:nothing@127.0.0.1:${port}/none`;
  silentDb = uncheckedDatabase(url, live.info, { connectionTimeoutMillis: 200 });
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  silent.close();
  await silentDb.close().catch(() => {});
  await live.close();
});

const ingestRequest = () =>
  new Request("http://tidemark.test/api/ingest", {
    method: "POST",
    headers: { authorization: "Bearer tm_agent_whatever", "content-type": "application/json" },
    body: "{}",
  });

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  expect((await response.json()).error).toMatch(/database is unavailable/);
}

describe("with the database down", () => {
  it("ingest answers 503 with Retry-After when nothing listens", async () => {
    await expectUnavailable(
      await withDatabase(
        (db) => ingestResponse(db, ingestRequest()),
        () => connectDatabase("postgres://x:y@127.0.0.1:1/none"),
      ),
    );
  });

  it("ingest and health answer 503 with Retry-After when the server stopped answering", async () => {
    await expectUnavailable(
      await withDatabase(
        (db) => ingestResponse(db, ingestRequest()),
        async () => silentDb,
      ),
    );
    await expectUnavailable(await withDatabase(healthResponse, async () => silentDb));
  });

  it("health answers 200 with the database's kind when it is up", async () => {
    const response = await withDatabase(healthResponse, async () => live);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "ok",
      database: { reachable: true, kind: (await currentDatabaseInfo(live)).kind },
    });
  });
});

describe("the tRPC endpoint with the database down", () => {
  it("answers 503, not 500", async () => {
    const request = new Request("http://tidemark.test/api/trpc/session.me", { headers: { cookie: "tm_session=abc" } });
    const response = await trpcResponse(silentDb, request);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
