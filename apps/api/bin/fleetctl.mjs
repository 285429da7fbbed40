#!/usr/bin/env node
// `pnpm fleetctl …` at the repository's root runs this bin (the root has no `fleetctl` script): pnpm prints
// its `> fleet-control-plane@ fleetctl …` banner on stdout before a script, never before a bin, so
// `pnpm fleetctl … --json | jq` reads clean JSON.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/fleetctl.ts");
