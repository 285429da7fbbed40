#!/usr/bin/env node
// The runner's command: the package ships TypeScript source, so load it through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
