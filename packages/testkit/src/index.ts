// Test infrastructure shared by every package and service, and the local servers `npm run stack` uses.

export { type CardEntry, type CardPageResult, futureExpiry, payOnCardPage } from "./card-page-driver.js";
export { typecheckConsumerFile } from "./consumer-typecheck.js";
export { ensureServerBinaries, type ServerBinaries, serverBinDir } from "./local-servers/binaries.js";
export {
  type FerretDbBackend,
  type FerretDbOptions,
  ferretDbBackend,
  startFerretDb,
} from "./local-servers/ferretdb-server.js";
export { freePort, freePorts } from "./local-servers/free-port.js";
export type { LocalServer, StartOptions as LocalServerOptions } from "./local-servers/local-server.js";
export { startNatsServer } from "./local-servers/nats-server.js";
export { startPostgres } from "./local-servers/postgres-server.js";
export { pingJetStream, pingMongo } from "./local-servers/probes.js";
export { metricValue } from "./metric-value.js";
export {
  createQueryPlanDb,
  type QueryPlanDb,
  queryPlanProblems,
  type RecordedQuery,
  recordQueries,
} from "./mongo/query-plans.js";
export { createTestDb, type TestDb } from "./mongo/test-db.js";
export { uniqueDbName } from "./mongo/unique-db-name.js";
export {
  COMPILED_CONDITION,
  type ManagedProcess,
  nodeArgsFor,
  type ProcessRuntime,
  type StartProcessOptions,
  startProcess,
} from "./process/start-process.js";
export { pythonTool } from "./python-tools.js";
export { type TestServers, testServers } from "./test-servers.js";
export { type WaitForOptions, waitFor } from "./wait-for.js";
