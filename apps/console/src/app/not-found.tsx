import Link from "next/link";

export const metadata = { title: "Page not found" };

/** Outside the signed-in shell (sign-in, auth links): a styled not-found that leads back in. */
export default function NotFound() {
  return (
    <main className="page" style={{ maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
      <h1 className="page-header__title">Page not found</h1>
      <p>
        There is nothing at this address. <Link href="/">Open the console</Link> or{" "}
        <Link href="/sign-in">sign in</Link>.
      </p>
    </main>
  );
}
