/**
 * A failed provider test in words: what went wrong and what to change. The server's detail (the vendor's
 * own status, its message with the key scrubbed) is shown beneath, for the particulars.
 */
export function providerTestWords(code: string): { title: string; advice: string } {
  switch (code) {
    case "UZ-MODEL-001":
      return {
        title: "No provider is configured",
        advice: "Neither you nor the platform has a model provider: set one with Set provider.",
      };
    case "UZ-MODEL-002":
      return {
        title: "The provider could not be reached",
        advice:
          "The connection failed or the provider answered with a server error. Check the address (for an OpenAI-compatible endpoint) and that the provider is up, then test again.",
      };
    case "UZ-MODEL-003":
      return {
        title: "The provider did not answer in time",
        advice: "It accepted the call but gave no answer within the test's deadline. Try again in a moment.",
      };
    case "UZ-MODEL-004":
      return {
        title: "The provider is rate limiting this key",
        advice:
          "The key works, but its quota or rate is used up for now. Wait, or raise the limit with the provider.",
      };
    case "UZ-MODEL-005":
      return {
        title: "The provider refused the key",
        advice:
          "The key is wrong, revoked or lacks access to this model: paste a fresh key with Set provider.",
      };
    case "UZ-MODEL-006":
      return {
        title: "The provider refused the request",
        advice:
          "It answered that the call is invalid, often because it does not serve this model: choose another.",
      };
    case "UZ-MODEL-008":
    case "UZ-PROVIDER-005":
      return {
        title: "The provider's address cannot be used",
        advice:
          "An OpenAI-compatible endpoint needs an https address of a host on the public internet: correct Base URL.",
      };
    case "UZ-VAULT-003":
      return {
        title: "The platform's key is missing",
        advice:
          "The platform default's key is gone from its workspace: tell an operator, or set a provider of your own.",
      };
    default:
      return { title: "The test failed", advice: "The details below say what the server met." };
  }
}
