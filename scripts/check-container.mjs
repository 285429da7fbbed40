// Checks the container files (`node scripts/check-container.mjs`): the Dockerfile's basic rules, the
// compose file's images, `docker compose config` where Docker's compose is installed, and hadolint where
// it is. What it checks is what it says; it builds no image (that needs a Docker daemon and the network).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** `image:tag` pinned: a tag that is not `latest` (a digest counts too). */
function pinned(image) {
  if (image.includes("@sha256:")) return true;
  const tag = image.slice(image.lastIndexOf("/") + 1).split(":")[1];
  return tag !== undefined && tag !== "" && tag !== "latest";
}

/** The Dockerfile's rules, as problems (none: it passes). */
export function checkDockerfile(text) {
  const problems = [];
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const args = new Map();
  const stages = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [instruction, ...rest] = line.split(/\s+/);
    const word = instruction.toUpperCase();
    const body = rest.join(" ");
    if (word === "ARG" && stages.length === 0) {
      const [name, value] = body.split("=");
      if (value !== undefined) args.set(name, value);
    } else if (word === "FROM") {
      const [image, as, name] = rest;
      const resolved = image.replace(/\$\{?(\w+)\}?/g, (_, arg) => args.get(arg) ?? "");
      const fromStage = stages.some((stage) => stage.name === image);
      if (!fromStage && !pinned(resolved)) problems.push(`FROM ${image}: pin a tag other than latest`);
      stages.push({
        name: as?.toUpperCase() === "AS" ? name : undefined,
        user: null,
        healthcheck: false,
        cmd: null,
      });
    } else if (stages.length > 0) {
      const stage = stages.at(-1);
      if (word === "USER") stage.user = body;
      if (word === "HEALTHCHECK") stage.healthcheck = true;
      if (word === "CMD" || word === "ENTRYPOINT") stage.cmd = body;
      if (word === "ADD" && !/^--/.test(body)) problems.push(`ADD ${body}: use COPY for local files`);
      if (word === "RUN" && /\bsudo\b/.test(body)) problems.push("RUN: no sudo in an image build");
      if (word === "RUN" && /apt-get install(?![^&]*--no-install-recommends)/.test(body))
        problems.push("RUN apt-get install: add --no-install-recommends");
      if (/:latest\b/.test(body)) problems.push(`${word} ${body}: no latest`);
    }
  }
  if (stages.length < 2) problems.push("a multi-stage build: at least a build stage and a runtime stage");
  // The stages an image is built from are the ones no other stage builds on: each must drop root.
  for (const stage of stages) {
    const built =
      stage.name !== undefined && new RegExp(`--from=${stage.name}\\b|FROM ${stage.name}\\b`).test(text);
    if (built) continue;
    const label = stage.name ?? "the last stage";
    if (stage.user === null || /^(root|0)(:|$)/.test(stage.user))
      problems.push(`${label}: USER a non-root user`);
    if (!stage.healthcheck) problems.push(`${label}: HEALTHCHECK`);
    if (stage.cmd === null) problems.push(`${label}: CMD`);
    else if (!stage.cmd.startsWith("["))
      problems.push(`${label}: CMD in JSON form (signals reach the process)`);
  }
  return problems;
}

/** Every `image:` of the compose file pinned, built ones named without a registry tag of latest. */
export function checkComposeImages(text) {
  const problems = [];
  for (const match of text.matchAll(/^\s*image:\s*(\S+)\s*$/gm)) {
    if (!pinned(match[1])) problems.push(`compose image ${match[1]}: pin a tag other than latest`);
  }
  return problems;
}

/** The compose command Docker offers here: `docker compose`, else `docker-compose`, else none. */
function composeCommand() {
  for (const [command, ...args] of [["docker", "compose"], ["docker-compose"]]) {
    const probe = spawnSync(command, [...args, "version"], { stdio: "ignore" });
    if (probe.status === 0) return [command, ...args];
  }
  return null;
}

/** `docker compose config -q` with placeholder secrets; skipped (null) when no compose is installed. */
export function composeConfig() {
  const compose = composeCommand();
  if (compose === null) return null;
  const [command, ...args] = compose;
  const result = spawnSync(command, [...args, "-f", join(root, "compose.yaml"), "config", "-q"], {
    env: {
      ...process.env,
      POSTGRES_PASSWORD: "placeholder",
      FLEET_MASTER_KEY: Buffer.alloc(32).toString("base64"),
    },
    encoding: "utf8",
  });
  return { command: compose.join(" "), ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** hadolint's findings when it is installed; null when it is not. */
export function hadolint() {
  const probe = spawnSync("hadolint", ["--version"], { stdio: "ignore" });
  if (probe.status !== 0) return null;
  try {
    execFileSync("hadolint", [join(root, "Dockerfile")], { encoding: "utf8" });
    return { ok: true, output: "" };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}` };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = [
    ...checkDockerfile(readFileSync(join(root, "Dockerfile"), "utf8")),
    ...checkComposeImages(readFileSync(join(root, "compose.yaml"), "utf8")),
  ];
  const config = composeConfig();
  if (config === null) console.log("compose config: skipped (no docker compose / docker-compose here)");
  else if (config.ok) console.log(`compose config: ok (${config.command})`);
  else problems.push(`${config.command} config: ${config.output.trim()}`);
  const lint = hadolint();
  if (lint === null) console.log("hadolint: skipped (not installed)");
  else if (lint.ok) console.log("hadolint: ok");
  else problems.push(`hadolint:\n${lint.output.trim()}`);
  for (const problem of problems) console.error(`container: ${problem}`);
  console.log(
    problems.length === 0 ? "container files: ok" : `container files: ${problems.length} problem(s)`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
