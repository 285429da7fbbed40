import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script of the repository's, without type declarations
import { checkComposeImages, checkDockerfile, composeConfig } from "../../../scripts/check-container.mjs";
import { databaseKind } from "./harness.ts";

const root = join(import.meta.dirname, "..", "..", "..");

// Files, not a database: once, in the PGlite project.
describe.runIf(databaseKind === "pglite")("the container files", () => {
  it("keep the Dockerfile's rules: pinned bases, several stages, each image non-root with a health check", () => {
    expect(checkDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"))).toEqual([]);
    expect(checkComposeImages(readFileSync(join(root, "compose.yaml"), "utf8"))).toEqual([]);
  });

  it("flag a Dockerfile that breaks them", () => {
    const bad = ["FROM node:latest", "RUN apt-get install -y curl", "CMD node server.js"].join("\n");
    expect(checkDockerfile(bad)).toEqual([
      "FROM node:latest: pin a tag other than latest",
      "RUN apt-get install: add --no-install-recommends",
      "a multi-stage build: at least a build stage and a runtime stage",
      "the last stage: USER a non-root user",
      "the last stage: HEALTHCHECK",
      "the last stage: CMD in JSON form (signals reach the process)",
    ]);
    expect(checkDockerfile("FROM node AS build\nFROM build\nUSER root\nHEALTHCHECK NONE\nCMD []")).toContain(
      "FROM node: pin a tag other than latest",
    );
    expect(checkComposeImages("  image: postgres\n  image: redis:latest\n")).toHaveLength(2);
  });

  it("pass `docker compose config` where Docker's compose is installed", (context) => {
    const config = composeConfig();
    if (config === null) context.skip();
    expect(config.ok, config.output).toBe(true);
  });
});
