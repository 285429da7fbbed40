import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { dirname, join } from "node:path";
import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { pollDeviceSignIn } from "@fleet/contracts/sessions/poll-device-sign-in";
import type { startDeviceSignIn } from "@fleet/contracts/sessions/start-device-sign-in";
import { CliError, readCredential, request, type SavedCredential } from "./api-client.ts";

/** Where `fleetctl login` keeps the credential unless told otherwise: readable by its owner only. */
export function defaultCredentialsFile(): string {
  return join(homedir(), ".config", "fleet", "credentials.json");
}

/** A refusal or failure of the sign-in, told to the person in one line. */
export class LoginError extends CliError {}

async function post<T>(api: string, path: string, body: unknown) {
  const answer = await request<T>(api, "POST", path, { body });
  return { ...answer, retryAfter: Number(answer.headers.get("retry-after") ?? "0") };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `fleetctl login`: the device sign-in against a running API (docs/decisions/credentials-and-sign-in.md, "Device sign-in").
 * Prints where to approve on stderr, polls at the interval the API asks for (slower on `slow_down`), and
 * writes the credential to `file` (mode 600). The answer names the credential, never its token.
 */
export async function login(
  options: { apiUrl: string; file: string; clientName: string },
  say: (line: string) => void,
): Promise<Record<string, unknown>> {
  const api = options.apiUrl.replace(/\/$/, "");
  const started = await post<OutputOf<typeof startDeviceSignIn> & Partial<ProblemBody>>(
    api,
    "/v1/auth/sessions",
    { client_name: options.clientName, client_host: hostname().slice(0, 253) || "unknown" },
  );
  if (started.status !== 201)
    throw new LoginError(`${api}: ${started.body?.detail ?? `the API answered ${started.status}`}`);
  const { device_code, user_code, verification_uri, verification_uri_complete } = started.body;
  say(`To sign in, open ${verification_uri_complete}`);
  say(`(or ${verification_uri}) and check that it shows the code ${user_code}.`);
  say("Waiting for the approval…");
  const deadline = Date.now() + started.body.expires_in * 1000;
  let intervalMs = started.body.interval * 1000;
  for (;;) {
    await sleep(intervalMs);
    if (Date.now() > deadline)
      throw new LoginError("the sign-in expired before it was approved; run login again");
    const polled = await post<OutputOf<typeof pollDeviceSignIn> & Partial<ProblemBody>>(
      api,
      "/v1/auth/sessions/token",
      { device_code },
    );
    if (polled.status === 200) {
      // The verification address is the console's /device page: its origin is where runs can be read.
      const consoleUrl = verification_uri.replace(/\/device$/, "");
      const stored: SavedCredential = { api_url: api, console_url: consoleUrl, ...polled.body };
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
      writeFileSync(options.file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
      return {
        signed_in: true,
        user_id: polled.body.user_id,
        tenant_id: polled.body.tenant_id,
        credential_id: polled.body.credential_id,
        expires_at: polled.body.expires_at,
        api_url: api,
        credentials_file: options.file,
      };
    }
    if (polled.status === 409 || polled.status === 429) {
      // authorization_pending keeps the pace; slow_down's Retry-After is the new, longer interval.
      if (polled.retryAfter > 0) intervalMs = Math.max(intervalMs, polled.retryAfter * 1000);
      continue;
    }
    if (polled.status === 403) throw new LoginError("the sign-in was denied");
    if (polled.status === 401) throw new LoginError("the sign-in expired; run login again");
    throw new LoginError(polled.body?.detail ?? `the API answered ${polled.status}`);
  }
}

/** `fleetctl logout`: revokes the stored credential on the API, then forgets it. */
export async function logout(file: string): Promise<Record<string, unknown>> {
  const stored = readCredential(file);
  if (stored === null) throw new LoginError(`no credential at ${file}`);
  const response = await request(
    stored.api_url,
    "DELETE",
    `/v1/users/me/cli-credentials/${stored.credential_id}`,
    {
      token: stored.session_token,
    },
  );
  // 401: already revoked or expired; either way nothing is left to revoke.
  if (response.status !== 204 && response.status !== 401)
    throw new LoginError(`the API answered ${response.status}; the credential is kept at ${file}`);
  rmSync(file, { force: true });
  return { signed_out: true, credential_id: stored.credential_id };
}
