import { defineConfig } from "prisma/config";

// The URL is only needed by commands that talk to a database (`prisma migrate deploy` where the
// engine can be had); `prisma generate` works without it.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/tidemark" },
});
