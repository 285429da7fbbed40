import type { NextConfig } from "next";

const config: NextConfig = {
  // The workspace packages export TypeScript source.
  transpilePackages: ["@fleet/contracts", "@fleet/ui"],
  reactStrictMode: true,
  poweredByHeader: false,
  // The Content-Security-Policy (with frame-ancestors 'none') is set per request in src/proxy.ts, with a
  // fresh script nonce; these are the same for every answer.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default config;
