/**
 * Where the console opens: after a sign-in (by link or by key), at `/`, and from the brand. The overview
 * says what needs a person now and links to the place that fixes each; Fleets is one click away.
 */
export const LANDING_PATH = "/overview";
