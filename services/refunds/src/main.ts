// The refunds service in distributed mode: config -> Mongo -> gRPC clients -> server.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createEpgAcquirer } from "@gateway/acquirer";
import {
  connectMongo,
  createLogger,
  initTelemetry,
  installGracefulShutdown,
  newId,
  pingMongo,
  readConfigOrExit,
  startServiceServer,
  systemClock,
  tracingClientInterceptor,
} from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import { createAccountsTerminalProvider } from "./adapters/accounts/accounts-terminal-provider.js";
import { createMongoBalanceLedger } from "./adapters/mongo/mongo-balance-ledger.js";
import { createMongoRefundRepository } from "./adapters/mongo/mongo-refund-repository.js";
import { createSessionsPaidSessionLookup } from "./adapters/sessions/sessions-paid-session-lookup.js";
import { refundsConfigSpec } from "./config.js";
import { createRefundsRoutes } from "./refunds-module.js";

const SERVICE_NAME = "refunds";

async function main(): Promise<void> {
  const config = readConfigOrExit(refundsConfigSpec);
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });
  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const grpc = (baseUrl: string) => createGrpcTransport({ baseUrl, interceptors: [tracingClientInterceptor()] });

  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: createRefundsRoutes({
      sessions: createSessionsPaidSessionLookup(createClient(SessionService, grpc(config.sessionsUrl))),
      terminals: createAccountsTerminalProvider(createClient(AccountsService, grpc(config.accountsUrl))),
      ledger: await createMongoBalanceLedger(db),
      refunds: await createMongoRefundRepository(db),
      acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
      clock: systemClock,
      newId,
    }),
    readiness: [{ name: "mongo", check: () => pingMongo(db) }],
    logger,
  });
  installGracefulShutdown(logger, [
    { name: "server", run: () => server.close() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  process.stderr.write(`refunds failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
