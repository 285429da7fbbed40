"use client";

/** The last resort when even the root layout failed: a plain page with a retry (it brings its own html). */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body
        style={{
          fontFamily: "system-ui, sans-serif",
          maxWidth: "40rem",
          margin: "4rem auto",
          padding: "0 1rem",
        }}
      >
        <main>
          <h1>Something went wrong</h1>
          <p>The console could not be shown.</p>
          <button type="button" onClick={() => reset()}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
