import "@fleet/ui/styles.css";
import "./globals.css";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { themeScript } from "../lib/theme.ts";

export const metadata: Metadata = {
  title: { default: "Fleet Control Plane", template: "%s · Fleet Control Plane" },
  description: "Operator console for Fleet Control Plane",
  robots: { index: false, follow: false },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The head script sets data-theme on this element before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* A constant of ours (no input): the chosen theme applied before the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
