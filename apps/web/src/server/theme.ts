import { cookies } from "next/headers";
import { readThemeChoice, THEME_COOKIE, type ThemeChoice } from "~/lib/theme";

/** The theme the user chose (the cookie the toggle writes); "system" follows prefers-color-scheme. */
export async function themeChoice(): Promise<ThemeChoice> {
  return readThemeChoice((await cookies()).get(THEME_COOKIE)?.value);
}
