/**
 * Where the console opens: after a sign-in (by link or by key), at `/`, and from the brand. Fleets is what
 * people come for; the API keys page is one click away in the navigation.
 */
export const LANDING_PATH = "/fleets";
