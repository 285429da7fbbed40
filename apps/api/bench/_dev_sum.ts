import { formatSummary, summariseProfile } from "./profile.ts";
console.log(formatSummary(summariseProfile(process.argv[2]!, Number(process.argv[3] ?? 25))));
