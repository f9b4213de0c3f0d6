import type { State } from "@tidemark/thresholds";

/** The dashboard's state colours (globals.css --ok, --warning, …) for drawing on a canvas. */
export const STATE_COLORS: Record<State, string> = { OK: "#22c55e", WARNING: "#f59e0b", CRITICAL: "#ef4444", UNKNOWN: "#a78bfa" };
