import { z } from "zod";

/**
 * The console's one reader of configuration (server side only). Read when a request needs it, not at
 * build time, so one build runs against any API.
 */
const schema = z.object({
  /** Where the console reaches the API, server to server; the browser goes through this origin's /trpc. */
  API_URL: z.url().default("http://127.0.0.1:8080"),
  /** Set by `next dev` and `next start`; development loosens what the dev server's own scripts need. */
  NODE_ENV: z.string().optional(),
});

export interface ConsoleEnv {
  apiUrl: string;
  /** Served by `next dev` (its hot reload evaluates scripts the policy would otherwise refuse). */
  development: boolean;
}

let cached: ConsoleEnv | undefined;

export function env(): ConsoleEnv {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  cached = {
    apiUrl: parsed.data.API_URL.replace(/\/$/, ""),
    development: parsed.data.NODE_ENV === "development",
  };
  return cached;
}
