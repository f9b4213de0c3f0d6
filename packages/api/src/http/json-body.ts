import { findUnstorableText } from "@tidemark/protocol";
import { errorResponse } from "./json-errors.ts";
import { readBodyWithLimit } from "./read-body.ts";

export type JsonBody = { ok: true; json: unknown } | { ok: false; response: Response };

/**
 * A request's JSON body up to `limit` bytes, or the 4xx that says why not: too large (413), not
 * JSON (400), or holding a string PostgreSQL cannot store (400, with where it is).
 */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBody> {
  const body = await readBodyWithLimit(request, limit);
  if (body === null) return { ok: false, response: errorResponse(413, `the body may be at most ${limit} bytes: send less`) };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      response: errorResponse(400, `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`),
    };
  }
  const unstorable = findUnstorableText(json);
  if (unstorable) {
    const where = unstorable.path.join(".") || "(body)";
    return {
      ok: false,
      response: errorResponse(400, `${where} ${unstorable.reason}`, { issues: [{ path: where, message: unstorable.reason }] }),
    };
  }
  return { ok: true, json };
}
