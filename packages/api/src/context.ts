import type { Database } from "@tidemark/db/client";
import type { SessionView } from "@tidemark/db/organizations";
import type { SharedReads } from "./shared-reads.ts";

/** What every tRPC call runs with; the web app builds it from the request's session cookie. */
export interface Context {
  db: Database;
  session: SessionView | null;
  /** Origin check result for mutations (CSRF): set by the HTTP adapter. */
  sameOrigin: boolean;
  /** The web process's shared dashboard reads (shared-reads.ts); absent, every read goes to the database. */
  sharedReads?: SharedReads;
}
