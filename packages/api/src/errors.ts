import { DraftInvalidError, SnapshotUnreadableError } from "@tidemark/config-render";
import { AlertAlreadyAcknowledgedError } from "@tidemark/db/alerts";
import { ConfigConflictError, ConfigNotFoundError } from "@tidemark/db/configuration";
import { AgentNameTakenError } from "@tidemark/db/fleet";
import { PreviewNotFoundError } from "@tidemark/db/metrics";
import { LastAdminError } from "@tidemark/db/organizations";
import { RuleExportError } from "@tidemark/prometheus";
import { TRPCError } from "@trpc/server";

/**
 * The domain's refusals as the client's errors, in one table: a procedure lets them through and
 * the `domainErrors` middleware (trpc.ts) answers with the code. Anything not listed stays a 500.
 */
const CLIENT_ERRORS: readonly [new (...args: never[]) => Error, TRPCError["code"]][] = [
  [ConfigNotFoundError, "NOT_FOUND"],
  [PreviewNotFoundError, "NOT_FOUND"],
  [ConfigConflictError, "CONFLICT"],
  [AgentNameTakenError, "CONFLICT"],
  [AlertAlreadyAcknowledgedError, "CONFLICT"],
  [LastAdminError, "CONFLICT"],
  // A draft the model refuses, or a rule Prometheus could not read, is the client's to fix.
  [DraftInvalidError, "BAD_REQUEST"],
  [RuleExportError, "BAD_REQUEST"],
  // A stored snapshot this server cannot read is the server's fault, said plainly.
  [SnapshotUnreadableError, "INTERNAL_SERVER_ERROR"],
];

/** The client's error for a domain error; null for anything else. */
export function clientError(error: unknown): TRPCError | null {
  for (const [type, code] of CLIENT_ERRORS) {
    if (error instanceof type) return new TRPCError({ code, message: error.message, cause: error });
  }
  return null;
}
