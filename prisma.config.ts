// Configuration of the Prisma CLI (migrate, generate). The app itself connects through
// lib/server/db/client.ts with @prisma/adapter-pg.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    // `prisma generate` needs no database; migrate commands fail with a clear message when it is unset.
    url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/holdfast",
  },
});
