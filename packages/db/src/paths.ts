import { fileURLToPath } from "node:url";

/** The repository's prisma/migrations folder, wherever the checkout lives. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));
