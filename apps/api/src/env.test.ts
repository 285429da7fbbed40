import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env.ts";

describe("configuration", () => {
  it("defaults to the embedded setup", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, consolePort: 3000, databaseUrl: "pglite://./.data/pglite" });
    expect(config.docsUrl).toBe("http://localhost:8080/docs/errors");
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SESSION_SIGNING_KEY: "short" }, "SESSION_SIGNING_KEY"],
    [{ DOCS_URL: "not a url" }, "DOCS_URL"],
    [{ FLEET_METRICS_TOKEN: "short" }, "FLEET_METRICS_TOKEN"],
    [{ FLEET_METRICS_TOKEN: "has a space in it, sixteen+" }, "FLEET_METRICS_TOKEN"],
    [{ FLEET_METRICS_ADDRESS: "9464" }, "FLEET_METRICS_ADDRESS"],
    [{ FLEET_METRICS_ADDRESS: "127.0.0.1:70000" }, "FLEET_METRICS_ADDRESS"],
    [{ FLEET_METRICS_ADDRESS: "http://127.0.0.1:9464" }, "FLEET_METRICS_ADDRESS"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [
      { FLEET_DEV_MODE: "true", FLEET_DEV_SCRIPTED_MODEL_URL: "http://10.0.0.5:8091/v1" },
      "FLEET_DEV_SCRIPTED_MODEL_URL",
    ],
    [{ FLEET_DEV_SCRIPTED_MODEL_URL: "http://127.0.0.1:8091/model/v1" }, "FLEET_DEV_SCRIPTED_MODEL_URL"],
  ])("refuses %j naming %s", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${name} `));
  });

  it("takes the scripted demo model's loopback URL in dev mode only", () => {
    expect(loadConfig({}).modelGateway.devScriptedModelUrl).toBeNull();
    const dev = loadConfig({
      FLEET_DEV_MODE: "true",
      FLEET_DEV_SCRIPTED_MODEL_URL: "http://127.0.0.1:8091/model/v1/",
    });
    expect(dev.modelGateway.devScriptedModelUrl).toBe("http://127.0.0.1:8091/model/v1");
    expect(() => loadConfig({ FLEET_DEV_SCRIPTED_MODEL_URL: "http://localhost:8091/v1" })).toThrow(
      /only with FLEET_DEV_MODE=true/,
    );
  });

  it("serves no metrics and loads no tracing unless told to", () => {
    const config = loadConfig({});
    expect(config.metrics).toEqual({ token: null, address: null });
    expect(config.tracing).toBeNull();
  });

  it("reads the metrics listener's address and the OTLP traces URL as the OpenTelemetry variables mean them", () => {
    expect(loadConfig({ FLEET_METRICS_ADDRESS: "0.0.0.0:9464" }).metrics.address).toEqual({
      host: "0.0.0.0",
      port: 9464,
    });
    expect(loadConfig({ FLEET_METRICS_ADDRESS: "[::1]:9464" }).metrics.address).toEqual({
      host: "::1",
      port: 9464,
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      url: "http://collector:4318/v1/traces",
      serviceName: "fleet-api",
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:4318/custom",
        OTEL_SERVICE_NAME: "fleet-eu",
      }).tracing,
    ).toEqual({ url: "http://traces:4318/custom", serviceName: "fleet-eu" });
  });

  it("never repeats a refused scrape token in its error", () => {
    expect(() => loadConfig({ FLEET_METRICS_TOKEN: "secret tok" })).toThrow(
      /^invalid configuration: FLEET_METRICS_TOKEN must be 16-512 printable characters without spaces$/,
    );
  });

  it("stops the server's start with one line naming the variable", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "main.ts")], {
      env: { ...process.env, PORT: "-1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^fleet-api: invalid configuration: PORT /);
  });
});
