/** Where the definition came from, in words: an upload (with its digest) or a repository at a commit. */
export function describeSource(sourceRef: string): { kind: "upload" | "git" | "other"; text: string } {
  if (sourceRef.startsWith("upload:sha256:")) {
    return { kind: "upload", text: `Uploaded · sha256 ${sourceRef.slice("upload:sha256:".length, 26)}…` };
  }
  if (sourceRef.startsWith("git:")) {
    const [url, commit] = sourceRef.slice(4).split("#");
    return { kind: "git", text: commit ? `${url} @ ${commit.slice(0, 12)}` : (url ?? sourceRef) };
  }
  return { kind: "other", text: sourceRef };
}
