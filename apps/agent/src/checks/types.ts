import type { AgentCheck, CheckResult } from "@tidemark/protocol";

/** Runs one check (all its items) once; must settle soon after `signal` aborts (the check's timeout). */
export type CheckRunner = (check: AgentCheck, signal: AbortSignal) => Promise<CheckResult[]>;

/** The output field is for people: its first line, bounded as the protocol allows. */
export function firstLine(text: string): string {
  return (text.split(/\r?\n/, 1)[0] ?? "").slice(0, 1024);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
