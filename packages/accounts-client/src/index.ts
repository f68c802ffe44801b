// Public surface of @gateway/accounts-client: what the accounts service offers its callers
// (sessions, refunds) beyond the generated gRPC client.
export { createAccountsTerminalProvider } from "./accounts-terminal-provider.js";
