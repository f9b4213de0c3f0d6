import type { Database } from "@tidemark/db/client";
import type { SessionView } from "@tidemark/db/organizations";

/** What every tRPC call runs with; the web app builds it from the request's session cookie. */
export interface Context {
  db: Database;
  session: SessionView | null;
  /** Origin check result for mutations (CSRF): set by the HTTP adapter. */
  sameOrigin: boolean;
}
