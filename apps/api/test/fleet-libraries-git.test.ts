import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { fetchDefinitionFromGit } from "../src/services/fleet-libraries/git-source.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { createEntry, definition, type Item, TRIAGE } from "./fleet-library-fixtures.ts";
import { callAt, seedTenant, startApi, type TestApi } from "./harness.ts";

/** A local repository made with the system git: files committed on main, plus the branches asked for. */
function gitRepository(
  files: Record<string, string | Buffer>,
  branches: Record<string, Record<string, string>> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "fleet-library-fixture-"));
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.test", ...args], {
      cwd: dir,
      env,
    })
      .toString()
      .trim();
  git("init", "-q", "-b", "main");
  const write = (entries: Record<string, string | Buffer>) => {
    for (const [path, content] of Object.entries(entries)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      if (typeof content === "string" && content.startsWith("symlink:"))
        symlinkSync(content.slice(8), join(dir, path));
      else writeFileSync(join(dir, path), content);
    }
    git("add", "-A");
    git("commit", "-q", "-m", "fixture");
  };
  write(files);
  const head = git("rev-parse", "HEAD");
  const heads: Record<string, string> = { main: head };
  for (const [branch, entries] of Object.entries(branches)) {
    git("checkout", "-q", "-b", branch);
    write(entries);
    heads[branch] = git("rev-parse", "HEAD");
    git("checkout", "-q", "main");
  }
  return { dir, url: `file://${dir}`, heads };
}

describe("creating a library entry from a git repository", () => {
  // file:// is accepted only in dev mode: these tests run an API of their own with FLEET_DEV_MODE.
  let dev: TestApi;
  let tenant: { workspaceId: string; apiKey: string };
  const repositories: string[] = [];

  beforeAll(async () => {
    dev = await startApi({ FLEET_DEV_MODE: "true" });
    const created = await bootstrapTenant(dev.app.services, {
      tenantName: "git tenant",
      email: `git-${newId()}@example.test`,
    });
    tenant = { workspaceId: created.workspace_id, apiKey: created.api_key };
  });

  afterAll(async () => {
    await dev.app.close();
    await dev.database.close();
    for (const dir of repositories) rmSync(dir, { recursive: true, force: true });
  });

  function repository(...args: Parameters<typeof gitRepository>) {
    const repo = gitRepository(...args);
    repositories.push(repo.dir);
    return repo;
  }

  const createFromGit = (body: Record<string, unknown>) =>
    callAt<Item>(dev.baseUrl, "POST", `/v1/workspaces/${tenant.workspaceId}/fleet-libraries`, {
      token: tenant.apiKey,
      body,
    });

  it("clones the repository and reads fleet.md, or the path and ref asked for", async () => {
    const repo = repository(
      { "fleet.md": TRIAGE, "fleets/other.md": definition("name: Other on main") },
      { feature: { "fleets/other.md": definition("name: Other on feature") } },
    );
    const created = await createFromGit({ git_url: repo.url });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Issue triage", visibility: "tenant" });
    expect(created.body.source_ref).toBe(`git:${repo.url}#${repo.heads.main}`);
    expect(created.text).not.toContain("instructions");

    const onBranch = await createFromGit({ git_url: repo.url, ref: "feature", path: "fleets/other.md" });
    expect(onBranch.status, onBranch.text).toBe(201);
    expect(onBranch.body.name).toBe("Other on feature");
    expect(onBranch.body.source_ref).toBe(`git:${repo.url}#${repo.heads.feature}`);
  });

  it("refuses paths that name no regular file, and refs or URLs that are not plain", async () => {
    const repo = repository({
      "fleet.md": TRIAGE,
      "dir/inside.md": TRIAGE,
      "link.md": "symlink:fleet.md",
      "binary.md": Buffer.from([0xff, 0xfe, 0x00, 0x41]),
      "huge.md": definition("name: Huge", "x".repeat(256 * 1024)),
    });
    const expectations: [Record<string, unknown>, number, string, RegExp?][] = [
      [{ git_url: repo.url, path: "missing.md" }, 400, "UZ-LIBRARY-010", /names no file/],
      [{ git_url: repo.url, path: "dir" }, 400, "UZ-LIBRARY-010", /tree, not a regular file/],
      [{ git_url: repo.url, path: "link.md" }, 400, "UZ-LIBRARY-010", /symbolic link/],
      [{ git_url: repo.url, path: "binary.md" }, 400, "UZ-LIBRARY-010", /not UTF-8/],
      [{ git_url: repo.url, path: "huge.md" }, 413, "UZ-LIBRARY-011"],
      [{ git_url: repo.url, path: "../etc/passwd" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, path: "/etc/passwd" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, ref: "--upload-pack=touch /tmp/x" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, ref: "no-such-branch" }, 502, "UZ-LIBRARY-013", /no-such-branch/],
      [{ git_url: `file://${repo.dir}-missing` }, 502, "UZ-LIBRARY-013"],
      [{ git_url: "-uhttps://example.com/x" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: "ssh://git@example.com/repo.git" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: "git@example.com:org/repo.git" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: `${repo.url}#main` }, 400, "UZ-LIBRARY-012"],
    ];
    for (const [body, status, code, detail] of expectations) {
      const response = await createFromGit(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error_code, JSON.stringify(body)).toBe(code);
      if (detail) expect(response.body.detail).toMatch(detail);
    }
  });

  it("never runs a remote helper such as ext::", async () => {
    const marker = join(tmpdir(), `fleet-ext-${newId()}`);
    for (const git_url of [`ext::sh -c touch% ${marker}`, `ext::sh -c "touch ${marker}"`, "fd::7"]) {
      const response = await createFromGit({ git_url });
      expect(response.status, git_url).toBe(400);
      expect(response.body.error_code).toBe("UZ-LIBRARY-012");
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("stops a clone past its byte ceiling, and removes its directory", async () => {
    const repo = repository({ "fleet.md": TRIAGE, "blob.bin": randomBytes(2 * 1024 * 1024) });
    const parent = mkdtempSync(join(tmpdir(), "fleet-library-parent-"));
    try {
      await expect(
        fetchDefinitionFromGit(
          { git_url: repo.url },
          { devMode: true, checkoutBytes: 512 * 1024, tempParent: parent },
        ),
      ).rejects.toMatchObject({ code: "UZ-LIBRARY-011", status: 413 });
      expect(readdirSync(parent)).toEqual([]);
      const fits = await fetchDefinitionFromGit({ git_url: repo.url }, { devMode: true, tempParent: parent });
      expect(fits.text).toBe(TRIAGE);
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("kills a clone that runs past its time limit, and removes its directory", async () => {
    // A server that accepts the connection and never answers: git waits until it is killed.
    const sockets: Socket[] = [];
    let closed = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.resume(); // flowing, so the peer's close is seen
      socket.on("close", () => closed++);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const parent = mkdtempSync(join(tmpdir(), "fleet-library-parent-"));
    try {
      const started = Date.now();
      await expect(
        fetchDefinitionFromGit(
          { git_url: `https://127.0.0.1:${port}/repo.git` },
          { devMode: true, timeLimitMs: 800, tempParent: parent },
        ),
      ).rejects.toMatchObject({ code: "UZ-LIBRARY-013", detail: expect.stringMatching(/time limit/) });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(sockets.length).toBeGreaterThan(0);
      const deadline = Date.now() + 2000;
      while (closed < sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(closed).toBe(sockets.length); // the process holding the connection is gone
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      server.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("git sources outside dev mode", () => {
  it("accepts only https to public hosts", async () => {
    const tenant = await seedTenant();
    const repo = gitRepository({ "fleet.md": TRIAGE });
    try {
      for (const git_url of [
        repo.url,
        "http://example.com/repo.git",
        "https://localhost/repo.git",
        "https://127.0.0.1/repo.git",
        "https://10.1.2.3/repo.git",
        "https://192.168.1.10/repo.git",
        "https://169.254.169.254/latest",
        "https://[::1]/repo.git",
        "https://[fd00::1]/repo.git",
        "https://[::ffff:127.0.0.1]/repo.git",
        "https://user:secret@example.com/repo.git",
        "https://example.com/repo.git?x=1",
      ]) {
        const response = await createEntry(tenant, { git_url });
        expect(response.status, git_url).toBe(400);
        expect(response.body.error_code, git_url).toBe("UZ-LIBRARY-012");
      }
      const unresolved = await createEntry(tenant, {
        git_url: "https://fleet-library-test.invalid/repo.git",
      });
      expect(unresolved.status).toBe(502);
      expect(unresolved.body.error_code).toBe("UZ-LIBRARY-013");
    } finally {
      rmSync(repo.dir, { recursive: true, force: true });
    }
  });

  it("fetches nothing for a workspace that is not the caller's (404 before any clone)", async () => {
    const stranger = await seedTenant();
    const owner = await seedTenant();
    const response = await createEntry(
      stranger,
      { git_url: "https://127.0.0.1/repo.git" },
      owner.workspaceId,
    );
    expect(response.status).toBe(404);
    expect(response.body.error_code).toBe("UZ-WORKSPACE-002");
  });
});
