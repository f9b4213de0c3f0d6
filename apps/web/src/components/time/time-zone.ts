"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { formatZonedInstant } from "~/lib/time-range";
import { useTRPC } from "~/trpc/react";

/**
 * The zone the dashboard shows times in: the organisation's (its setting, UTC unless an admin set
 * one), the browser's, or UTC, as the user chose in the range picker (kept in localStorage). The
 * server renders the organisation's choice as UTC, and the chosen zone takes over after hydration.
 */
export type ZoneChoice = "org" | "browser" | "utc";

const KEY = "tidemark.time-zone";
const CHANGED = "tidemark:time-zone";

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function readChoice(): ZoneChoice {
  const stored = localStorage.getItem(KEY);
  return stored === "utc" || stored === "browser" ? stored : "org";
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function setZoneChoice(choice: ZoneChoice) {
  localStorage.setItem(KEY, choice);
  window.dispatchEvent(new Event(CHANGED));
}

export function useTimeZone(): { timeZone: string; choice: ZoneChoice; organizationTimeZone: string } {
  const trpc = useTRPC();
  const settings = useQuery({ ...trpc.organizations.settings.queryOptions(), staleTime: 300_000 });
  const choice = useSyncExternalStore(subscribe, readChoice, () => "org" as const);
  const organizationTimeZone = settings.data?.timeZone ?? "UTC";
  const timeZone = choice === "utc" ? "UTC" : choice === "browser" ? browserTimeZone() : organizationTimeZone;
  return { timeZone, choice, organizationTimeZone };
}

/** Instants (to the second) as every page writes them, in the zone the user chose: lists, details, logs. */
export function useFormatInstant(): (instant: Date | number) => string {
  const { timeZone } = useTimeZone();
  return useCallback((instant: Date | number) => formatZonedInstant(new Date(instant).getTime(), timeZone, true), [timeZone]);
}
