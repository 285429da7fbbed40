import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIBRARY_CEILINGS, Problem } from "@fleet/contracts";
import { HostRefused, resolvePublic } from "../../runtime/public-address.ts";
import { dirBytes, Overrun, reason, run } from "./git-process.ts";

/** The clone's ceilings: bytes on disk (objects and all) and wall time, git's children included. */
export const GIT_LIMITS = { checkoutBytes: 64 * 1024 * 1024, timeLimitMs: 30_000 };

/** The file a repository holds its definition in when the request names no path. */
export const DEFAULT_DEFINITION_PATH = "fleet.md";

export interface GitSource {
  git_url: string;
  ref?: string;
  path?: string;
}

export interface GitFetchOptions {
  /** Where the git child looks for git and its helpers (the service's own PATH). */
  searchPath?: string;
  /** Dev mode also accepts file:// URLs and https to non-public hosts. */
  devMode: boolean;
  checkoutBytes?: number;
  timeLimitMs?: number;
  /** Where the clone's temporary directory is made; the system's temporary directory by default. */
  tempParent?: string;
}

function refused(detail: string): Problem {
  return new Problem("UZ-LIBRARY-012", { detail });
}

function failed(detail: string): Problem {
  return new Problem("UZ-LIBRARY-013", { detail });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const controls = /[\u0000-\u001f\u007f]/;

/** The URL git is given and the settings that confine it, or a refusal. */
async function target(raw: string, devMode: boolean): Promise<{ url: string; config: string[] }> {
  if (raw.startsWith("-")) throw refused("git_url must not start with -.");
  // `<transport>::<address>` runs a remote helper (ext:: runs a command); never one of those.
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(raw) || raw.includes("ext::")) {
    throw refused("git_url must not name a remote helper such as ext::.");
  }
  if (controls.test(raw) || /\s/.test(raw))
    throw refused("git_url must not contain spaces or control characters.");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("git_url must be an absolute https:// URL.");
  }
  if (url.search !== "" || url.hash !== "" || raw.includes("#")) {
    throw refused("git_url must not carry a query or a fragment.");
  }
  if (url.protocol === "file:") {
    if (!devMode) throw refused("file:// URLs are accepted only when the service runs in dev mode.");
    if (url.host !== "") throw refused("A file:// URL must name a local path (file:///…).");
    return { url: url.href, config: ["protocol.file.allow=always"] };
  }
  if (url.protocol !== "https:") throw refused("git_url must be an https:// URL.");
  if (url.username !== "" || url.password !== "") throw refused("git_url must not carry credentials.");
  const config = ["protocol.https.allow=always"];
  if (!devMode) {
    let addresses: string[];
    try {
      addresses = await resolvePublic(url.hostname);
    } catch (error) {
      if (error instanceof HostRefused) throw refused(`git_url must name a public host: ${error.message}.`);
      throw failed(`The repository could not be cloned: ${(error as Error).message}.`);
    }
    // Pins git's connection to the addresses just checked, so a second lookup cannot swap in another.
    const port = url.port || "443";
    const pinned = addresses.map((address) => (address.includes(":") ? `[${address}]` : address));
    config.push(
      `http.curloptResolve=${url.hostname.replace(/^\[(.*)\]$/, "$1")}:${port}:${pinned.join(",")}`,
    );
  }
  return { url: url.href, config };
}

function checkRef(ref: string): void {
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(ref) ||
    ref.includes("..") ||
    ref.includes("//") ||
    ref.endsWith("/") ||
    ref.endsWith(".") ||
    ref.endsWith(".lock")
  ) {
    throw refused(
      "ref must be a branch or tag name (letters, digits, . _ / -, starting with a letter or digit).",
    );
  }
}

function checkPath(path: string): void {
  const segments = path.split("/");
  if (
    controls.test(path) ||
    segments.some((segment) => segment === "" || segment === "." || segment === "..")
  ) {
    throw refused("path must be a relative path inside the repository, such as fleets/triage.md.");
  }
}

/**
 * Clones `git_url` (depth 1, no checkout) into a fresh temporary directory with the system git, reads
 * the definition at `path` from the fetched commit, and removes the directory whatever happens. The clone
 * runs with no system or user configuration, no prompts, no redirects and only the https (or, in dev
 * mode, file) transport, under a byte ceiling and a time limit.
 */
export async function fetchDefinitionFromGit(
  source: GitSource,
  options: GitFetchOptions,
): Promise<{ text: string; sourceRef: string }> {
  const path = source.path ?? DEFAULT_DEFINITION_PATH;
  checkPath(path);
  if (source.ref !== undefined) checkRef(source.ref);
  const { url, config } = await target(source.git_url, options.devMode);
  const checkoutBytes = options.checkoutBytes ?? GIT_LIMITS.checkoutBytes;
  const timeLimitMs = options.timeLimitMs ?? GIT_LIMITS.timeLimitMs;
  const deadline = Date.now() + timeLimitMs;
  const root = await mkdtemp(join(options.tempParent ?? tmpdir(), "fleet-library-"));
  try {
    const home = join(root, "home");
    const repo = join(root, "repo");
    await mkdir(home);
    const env = {
      PATH: options.searchPath ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_LITERAL_PATHSPECS: "1",
      LC_ALL: "C",
    };
    const settings = [
      "protocol.allow=never",
      ...config,
      "http.followRedirects=false",
      "credential.helper=",
      "core.hooksPath=/dev/null",
      "transfer.fsckObjects=true",
    ].flatMap((setting) => ["-c", setting]);
    const branch = source.ref === undefined ? [] : ["--branch", source.ref];
    const cloneArgs = [
      "clone",
      "--depth",
      "1",
      "--no-checkout",
      "--no-tags",
      "--single-branch",
      "--template=",
    ];
    const clone = await run([...settings, ...cloneArgs, ...branch, "--", url, repo], {
      env,
      deadline,
      maxStdout: 64 * 1024,
      watch: { dir: root, bytes: checkoutBytes },
    });
    if (clone.code !== 0) throw failed(`The repository could not be cloned: ${reason(clone.stderr)}.`);
    if ((await dirBytes(root, checkoutBytes)) > checkoutBytes) throw new Overrun("bytes");
    const git = (args: string[], maxStdout: number) =>
      run([...settings, "-C", repo, ...args], { env, deadline, maxStdout });
    const head = (await git(["rev-parse", "--verify", "HEAD^{commit}"], 1024)).stdout.toString("utf8").trim();
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head)) throw failed("The repository's HEAD names no commit.");
    const listing = (await git(["ls-tree", "-z", "--full-tree", head, "--", path], 64 * 1024)).stdout
      .toString("utf8")
      .split("\0")
      .find((line) => line.endsWith(`\t${path}`));
    if (listing === undefined) {
      throw new Problem("UZ-LIBRARY-010", { detail: `path ${path} names no file at commit ${head}.` });
    }
    const [mode, type, blobId] = listing.split("\t")[0]!.split(" ");
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) {
      throw new Problem("UZ-LIBRARY-010", {
        detail: `path ${path} names a ${type === "blob" ? "symbolic link" : type}, not a regular file.`,
      });
    }
    const size = Number((await git(["cat-file", "-s", blobId!], 64)).stdout.toString("utf8").trim());
    if (!(size <= LIBRARY_CEILINGS.definitionBytes)) {
      throw new Problem("UZ-LIBRARY-011", {
        detail: `The definition is ${size} bytes; the ceiling is ${LIBRARY_CEILINGS.definitionBytes}.`,
      });
    }
    const blob = await git(["cat-file", "blob", blobId!], LIBRARY_CEILINGS.definitionBytes);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(blob.stdout);
    } catch {
      throw new Problem("UZ-LIBRARY-010", { detail: `path ${path} is not UTF-8 text.` });
    }
    return { text, sourceRef: `git:${url}#${head}` };
  } catch (error) {
    if (!(error instanceof Overrun)) throw error;
    if (error.reason === "time") {
      throw failed(`The clone ran past its time limit of ${timeLimitMs / 1000} s and was stopped.`);
    }
    throw new Problem("UZ-LIBRARY-011", {
      detail: `The repository is over the checkout ceiling of ${checkoutBytes} bytes.`,
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
