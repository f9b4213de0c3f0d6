/** The theme choice, shared by the toggle (browser) and the root layout (server). */
export type ThemeChoice = "system" | "light" | "dark";
export const THEME_COOKIE = "tidemark-theme";
export const readThemeChoice = (value: string | undefined): ThemeChoice => (value === "light" || value === "dark" ? value : "system");
