import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTokenFile, resolveCredentials, writeTokenFile } from "./enrol.ts";
import { ConfigError, loadConfig } from "./env.ts";
import { HttpClient } from "./http.ts";
import { silentLogger } from "./log.ts";

const dir = mkdtempSync(join(tmpdir(), "fleet-runner-enrol-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const saved = {
  runner_id: "0190a000-0000-7000-8000-000000000001",
  host_id: "host-a",
  api_url: "http://api.test",
  runner_token: "agt_rSAVEDTOKENVALUE",
  enrolled_at: 1,
};

describe("the token file", () => {
  it("is written with mode 600 in a directory of mode 700, and read back", () => {
    const path = join(dir, "state", "fleet-runner", "host-a.json");
    writeTokenFile(path, saved);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state", "fleet-runner")).mode & 0o777).toBe(0o700);
    expect(readTokenFile(path)).toEqual(saved);
  });

  it("is refused when others can read it", () => {
    const path = join(dir, "loose.json");
    writeTokenFile(path, saved);
    chmodSync(path, 0o644);
    expect(() => readTokenFile(path)).toThrow(/readable by others/);
  });
});

describe("resolveCredentials", () => {
  const unreachable = new HttpClient("http://api.test", silentLogger, (() => {
    throw new Error("no call expected");
  }) as unknown as typeof fetch);

  it("prefers FLEET_RUNNER_TOKEN, then the token file, and needs an operator token to enrol", async () => {
    const tokenFile = join(dir, "prefer.json");
    const env = { FLEET_RUNNER_TOKEN_FILE: tokenFile, FLEET_RUNNER_HOST_ID: "host-a" };
    await expect(resolveCredentials(loadConfig(env), unreachable, silentLogger)).rejects.toBeInstanceOf(
      ConfigError,
    );
    writeTokenFile(tokenFile, saved);
    expect(await resolveCredentials(loadConfig(env), unreachable, silentLogger)).toEqual({
      token: saved.runner_token,
      runnerId: saved.runner_id,
      source: "token file",
    });
    const direct = await resolveCredentials(
      loadConfig({ ...env, FLEET_RUNNER_TOKEN: "agt_rFROMENVIRONMENT" }),
      unreachable,
      silentLogger,
    );
    expect(direct.source).toBe("environment");
  });

  it("enrols once with the operator token and keeps the runner token in the file", async () => {
    const tokenFile = join(dir, "enrolled", "host-b.json");
    const requests: unknown[] = [];
    const http = new HttpClient("http://api.test", silentLogger, (async (_url: URL, init: RequestInit) => {
      requests.push(JSON.parse(String(init.body)));
      return new Response(
        JSON.stringify({
          runner_id: "0190a000-0000-7000-8000-0000000000b0",
          runner_token: "agt_rNEWTOKENVALUE",
          host_id: "host-b",
          labels: ["gpu"],
          assigned_policy: {
            sandbox_tier: "dev_none",
            network_policy: "allow_all",
            registry_allowlist: [],
            worker_count: 2,
          },
          created_at: 5,
        }),
        { status: 201 },
      );
    }) as unknown as typeof fetch);
    const config = loadConfig({
      FLEET_RUNNER_TOKEN_FILE: tokenFile,
      FLEET_OPERATOR_TOKEN: "operator-token",
      FLEET_RUNNER_HOST_ID: "host-b",
      FLEET_RUNNER_SANDBOX_TIER: "dev_none",
      FLEET_RUNNER_WORKER_COUNT: "2",
      FLEET_RUNNER_LABELS: "gpu",
    });
    expect((await resolveCredentials(config, http, silentLogger)).token).toBe("agt_rNEWTOKENVALUE");
    expect(requests).toEqual([
      {
        host_id: "host-b",
        assigned_policy: { sandbox_tier: "dev_none", network_policy: "allow_all", worker_count: 2 },
        labels: ["gpu"],
      },
    ]);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(tokenFile, "utf8")).runner_token).toBe("agt_rNEWTOKENVALUE");
    // A second start uses the file; it does not enrol again.
    expect((await resolveCredentials(config, http, silentLogger)).source).toBe("token file");
    expect(requests).toHaveLength(1);
  });
});

describe("loadConfig", () => {
  it("names a bad variable without repeating its value", () => {
    expect(() => loadConfig({ FLEET_RUNNER_TOKEN: "agt_tNOTARUNNERKEY" })).toThrow(
      "invalid configuration: FLEET_RUNNER_TOKEN must be a runner token (agt_r…)",
    );
    expect(() => loadConfig({ FLEET_RUNNER_WAIT_MS: "60000" })).toThrow(/FLEET_RUNNER_WAIT_MS/);
  });

  it("defaults to the echo executor, a 20 s long-poll and 10 s heartbeats", () => {
    const config = loadConfig({ XDG_STATE_HOME: "/state", FLEET_RUNNER_HOST_ID: "box/1" });
    expect(config).toMatchObject({
      apiUrl: "http://127.0.0.1:8080",
      executor: "echo",
      waitMs: 20_000,
      heartbeatMs: 10_000,
      tokenFile: "/state/fleet-runner/box_1.json",
    });
  });
});
