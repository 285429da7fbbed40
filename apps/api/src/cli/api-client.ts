import { readFileSync } from "node:fs";

/** Where fleetctl looks for the API when nothing says otherwise: `pnpm start`'s default port. */
export const DEFAULT_API_URL = "http://localhost:8080";

/** The credential `fleetctl login` saves (mode 600): a command-line session for one person. */
export interface SavedCredential {
  api_url: string;
  session_token: string;
  credential_id: string;
  expires_at: number;
  user_id: string;
  tenant_id: string;
  /** The console of the API that issued it (from the sign-in's verification address), for links. */
  console_url?: string;
}

/** A refusal or failure told to the person in one line; fleetctl exits 1 with it. */
export class CliError extends Error {}

/** The saved credential at `file`, or null when there is none (or it is not one). */
export function readCredential(file: string): SavedCredential | null {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<SavedCredential>;
    return typeof stored.session_token === "string" && typeof stored.api_url === "string"
      ? (stored as SavedCredential)
      : null;
  } catch {
    return null;
  }
}

/**
 * The API a command speaks to, as every fleetctl command finds it: `--api-url`, else the environment
 * (API_URL, PUBLIC_URL, PORT), else the API of the saved credential, else http://localhost:8080.
 */
export function resolveApiUrl(
  flag: string | undefined,
  fromEnv: string | null,
  saved: SavedCredential | null,
) {
  return (flag ?? fromEnv ?? saved?.api_url ?? DEFAULT_API_URL).replace(/\/$/, "");
}

/** One line for an API's problem: its title and detail, and the request id to quote to an operator. */
export function problemLine(status: number, body: Record<string, unknown> | null): string {
  if (body === null || typeof body.title !== "string") return `the API answered ${status}`;
  const detail = typeof body.detail === "string" && body.detail !== "" ? `: ${body.detail}` : "";
  const code = typeof body.error_code === "string" ? ` ${body.error_code}` : "";
  const request = typeof body.request_id === "string" ? ` (request_id ${body.request_id})` : "";
  return `${body.title}${detail} [${status}${code}]${request}`;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * One request to the API at `baseUrl`. A connection that fails names the URL it tried and what to set;
 * the body is parsed when it is JSON.
 */
export async function request<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<ApiAnswer<T>> {
  const url = `${baseUrl}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    throw new CliError(
      `could not reach the API at ${baseUrl} (${why}); start it (pnpm start), or point fleetctl at it with --api-url, API_URL or PORT`,
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body: body as T, headers: response.headers };
}
