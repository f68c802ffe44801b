import type { Terminal } from "@gateway/acquirer";

/** The simulator's default terminal, reached at `baseUrl` (simulatorTerminalBaseUrl of where it is served). */
export function simulatorTerminal(baseUrl: string): Terminal {
  return { baseUrl, username: "sim-merchant", password: "sim-password" };
}
