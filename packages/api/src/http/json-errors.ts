import type { ZodError } from "zod";

export function errorResponse(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return Response.json({ error, ...extra }, { status });
}

/** zod issues as `path: message` pairs a person (or an agent's log) can act on. */
export function zodIssues(error: ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 20).map((i) => ({ path: i.path.join(".") || "(body)", message: i.message }));
}
