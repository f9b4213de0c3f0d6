"use client";

import { useSyncExternalStore } from "react";

/**
 * The zone the dashboard shows times in. Organisations have no time-zone setting (yet), so it is
 * the browser's, or UTC when the user picks that; the choice is kept in localStorage. The server
 * renders UTC, and the browser's zone takes over right after hydration.
 */
export type ZoneChoice = "browser" | "utc";

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

const readChoice = (): ZoneChoice => (localStorage.getItem(KEY) === "utc" ? "utc" : "browser");

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function setZoneChoice(choice: ZoneChoice) {
  localStorage.setItem(KEY, choice);
  window.dispatchEvent(new Event(CHANGED));
}

export function useTimeZone(): { timeZone: string; choice: ZoneChoice } {
  const choice = useSyncExternalStore(subscribe, readChoice, () => "utc" as const);
  return { timeZone: choice === "utc" ? "UTC" : browserTimeZone(), choice };
}
