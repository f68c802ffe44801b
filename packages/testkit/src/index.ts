// Test infrastructure shared by every package and service, and the local servers `npm run stack` uses.
export { freePort, freePorts } from "./local-servers/free-port.js";
export { ensureServerBinaries, serverBinDir, type ServerBinaries } from "./local-servers/binaries.js";
export type { LocalServer, StartOptions as LocalServerOptions } from "./local-servers/local-server.js";
export { startFerretDb, ferretDbBackend, type FerretDbBackend, type FerretDbOptions } from "./local-servers/ferretdb-server.js";
export { startPostgres } from "./local-servers/postgres-server.js";
export { startNatsServer } from "./local-servers/nats-server.js";
export { pingMongo, pingJetStream } from "./local-servers/probes.js";
export {
  startProcess,
  nodeArgsFor,
  COMPILED_CONDITION,
  type ManagedProcess,
  type ProcessRuntime,
  type StartProcessOptions,
} from "./process/start-process.js";
export { waitFor, type WaitForOptions } from "./wait-for.js";
export { uniqueDbName } from "./mongo/unique-db-name.js";
export { createTestDb, type TestDb } from "./mongo/test-db.js";
export { testServers, type TestServers } from "./test-servers.js";
export { futureExpiry, payOnCardPage, type CardEntry, type CardPageResult } from "./card-page-driver.js";

export { createQueryPlanDb, recordQueries, queryPlanProblems, type QueryPlanDb, type RecordedQuery } from "./mongo/query-plans.js";

export { pythonTool } from "./python-tools.js";
export { metricValue } from "./metric-value.js";
