"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { type Bounds, type Preset, readRange, resolveRange, type TimeRange, writeRange } from "~/lib/time-range";

/**
 * The page's time range, read from the URL. A change is a new history entry (pushState, which
 * Next.js keeps useSearchParams in step with, at no server render): Back and Forward step through
 * the ranges the user looked at. A relative range resolves against the minute it was chosen in,
 * so that its bounds (and the queries keyed on them) stay put until the range changes.
 */
export function useUrlRange(fallback: Preset): { range: TimeRange; bounds: Bounds; setRange: (next: TimeRange) => void } {
  const pathname = usePathname();
  const params = useSearchParams();
  const query = params.toString();
  const range = useMemo(() => readRange(new URLSearchParams(query), fallback), [query, fallback]);
  const key = range.kind === "relative" ? range.preset : `${range.from}-${range.to}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the range; now is taken when it changes.
  const bounds = useMemo(() => resolveRange(range, Math.ceil(Date.now() / 60_000) * 60_000), [key]);
  const setRange = useCallback(
    (next: TimeRange) => {
      const current = new URLSearchParams(globalThis.location.search);
      globalThis.history.pushState(null, "", `${pathname}?${writeRange(current, next)}`);
    },
    [pathname],
  );
  return { range, bounds, setRange };
}
