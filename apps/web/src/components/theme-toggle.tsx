"use client";

import { useState } from "react";
import { THEME_COOKIE, type ThemeChoice } from "~/lib/theme";

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: "light", light: "dark", dark: "system" };
const LABEL: Record<ThemeChoice, string> = { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" };
const ICON: Record<ThemeChoice, string> = { system: "◐", light: "☀", dark: "☾" };

/**
 * Cycles system → light → dark. The choice is a cookie (the server writes it on <html> as
 * data-theme, so the next page paints in it at once) and is applied here without a reload.
 */
export function ThemeToggle({ initial }: { initial: ThemeChoice }) {
  const [choice, setChoice] = useState(initial);
  function cycle() {
    const next = NEXT[choice];
    setChoice(next);
    // biome-ignore lint/suspicious/noDocumentCookie: one fixed-format cookie; the Cookie Store API is missing from Safari before 18.4
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    if (next === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
  }
  return (
    <button type="button" className="icon-button" onClick={cycle} aria-label={`${LABEL[choice]} (change)`} title={LABEL[choice]}>
      <span aria-hidden="true">{ICON[choice]}</span>
    </button>
  );
}
