/**
 * The well-known EPG test terminal: where the EPG simulator (apps/epg-simulator) is published
 * and the credentials it accepts by default. Accounts gives them to the demo merchant's test
 * terminal and the simulator checks them, so both read them from here rather than from each other.
 */
export interface TerminalCredential {
  username: string;
  password: string;
}

export const DEFAULT_SIMULATOR_CREDENTIALS: readonly TerminalCredential[] = [
  { username: "sim-merchant", password: "sim-password" },
];

/** Path prefix under which the simulator (protocol and card page) is served, e.g. behind the edge. */
export const EPG_SIMULATOR_PREFIX = "/epg/";

/** The base URL a terminal uses to reach a simulator published at `publicUrl`. */
export function simulatorTerminalBaseUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/epg/rest`;
}
