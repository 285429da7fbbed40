import { describe, expect, it } from "vitest";
import { hostAllowed, maskSecrets, resolvePlaceholders } from "./http-request.ts";

const secrets = new Map<string, Record<string, unknown>>([
  ["GITHUB_TOKEN", { token: "ghp_value_1234" }],
  ["db.main", { password: "hunter22" }],
]);

describe("http_request's guards", () => {
  it("allows exact hosts and the subdomains of a *. entry, nothing else", () => {
    const allowed = ["api.github.com", "*.example.com"];
    expect(hostAllowed("api.github.com", allowed)).toBe(true);
    expect(hostAllowed("API.GitHub.com.", allowed)).toBe(true);
    expect(hostAllowed("a.b.example.com", allowed)).toBe(true);
    expect(hostAllowed("example.com", allowed)).toBe(false);
    expect(hostAllowed("evilexample.com", allowed)).toBe(false);
    expect(hostAllowed("github.com", allowed)).toBe(false);
    expect(hostAllowed("anything", [])).toBe(false);
  });

  it("fills placeholders from the lease's secrets, and names one it cannot fill", () => {
    expect(resolvePlaceholders("Bearer {{secrets.GITHUB_TOKEN.token}}", secrets)).toEqual({
      text: "Bearer ghp_value_1234",
    });
    expect(resolvePlaceholders("{{ secrets.db.main.password }}", secrets)).toEqual({ text: "hunter22" });
    expect(resolvePlaceholders("{{secrets.GITHUB_TOKEN.nope}}", secrets)).toEqual({
      missing: "{{secrets.GITHUB_TOKEN.nope}}",
    });
    expect(resolvePlaceholders("no placeholder", secrets)).toEqual({ text: "no placeholder" });
  });

  it("masks every secret value out of what the model reads", () => {
    expect(maskSecrets("echo: ghp_value_1234 and hunter22, ghp_value_1234", secrets)).toBe(
      "echo: [secret:GITHUB_TOKEN] and [secret:db.main], [secret:GITHUB_TOKEN]",
    );
  });
});
