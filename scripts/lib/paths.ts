import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const DATA_DIR = path.resolve(process.env.TIDEMARK_DATA_DIR ?? path.join(REPO_ROOT, ".data"));

/** shared/ sits beside the checkout (CI clones the repo with shared/ next to it). */
export function sharedDir(...parts: string[]): string | null {
  const dir = path.join(REPO_ROOT, "..", "shared", ...parts);
  return existsSync(dir) ? dir : null;
}

export const bin = (name: string) => path.join(REPO_ROOT, "node_modules", ".bin", name);
