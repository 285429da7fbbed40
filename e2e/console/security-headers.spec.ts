import { collectProblems, expect, openFromNavigation, test } from "../support/fixtures.ts";

/** The nonce a page's Content-Security-Policy names for scripts. */
function nonceOf(policy: string | null): string {
  const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(policy ?? "")?.[1];
  expect(nonce, `a script nonce in ${policy}`).toBeDefined();
  return nonce!;
}

test.describe("Security headers", () => {
  test("every page has a CSP whose script nonce is fresh per request and carried by the page's scripts", async ({
    request,
  }) => {
    const answers = [await request.get("/sign-in"), await request.get("/sign-in")];
    const policies = answers.map((answer) => answer.headers()["content-security-policy"] ?? null);
    const nonces = policies.map(nonceOf);
    expect(nonces[0]).not.toBe(nonces[1]);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
      expect(policies[0]).toContain(directive);
    expect(policies[0]).not.toContain("unsafe-eval");
    // Every script of the page carries that response's nonce, and only it.
    const html = await answers[0]!.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(2);
    for (const script of scripts) expect(script, script).toContain(`nonce="${nonces[0]}"`);
    // Plain http here: no HSTS. Behind a TLS-terminating proxy (x-forwarded-proto https): HSTS.
    expect(answers[0]!.headers()["strict-transport-security"]).toBeUndefined();
    const secure = await request.get("/sign-in", { headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers()["strict-transport-security"]).toBe("max-age=31536000");
  });

  test("the console runs under its policy: no violation while signing in and moving between pages", async ({
    page,
    tenant,
  }) => {
    const problems = collectProblems(page);
    const violations: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    page.on("console", (message) => {
      if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
    });
    await openFromNavigation(page, tenant, "Connectors", "/connectors");
    for (const area of ["Fleets", "Approvals", "Events", "Secrets"]) {
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: new RegExp(area) })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: area })).toBeVisible();
    }
    // A full load of a deep page, with the theme script in its head.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
