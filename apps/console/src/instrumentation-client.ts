import { z } from "zod";

// Runs before the console's own client code. zod builds each object schema's fast parser with
// `new Function` when it may, probing once with a caught `new Function("")`; under the console's
// Content-Security-Policy (no 'unsafe-eval') that probe is refused and reported as a violation. Without
// the probe, zod parses with its plain parser (the console parses little in the browser).
z.config({ jitless: true });
