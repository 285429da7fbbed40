import "@fleet/ui/styles.css";
import "./globals.css";
import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { NONCE_HEADER } from "../lib/csp.ts";
import { themeScript } from "../lib/theme.ts";

export const metadata: Metadata = {
  title: { default: "Fleet Control Plane", template: "%s · Fleet Control Plane" },
  description: "Operator console for Fleet Control Plane",
  robots: { index: false, follow: false },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's CSP nonce (proxy.ts); reading the request also renders every page per request, as a
  // nonce must be fresh each time.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // The head script sets data-theme on this element before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* A constant of ours (no input): the chosen theme applied before the first paint. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
