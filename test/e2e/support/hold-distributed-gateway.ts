// The e2e harness as a process of its own, so a test can SIGKILL it: starts a distributed
// gateway (its own FerretDB and nats-server) exactly as the suites do, prints "ready", waits.
import { startDistributedGateway } from "@gateway/launcher";

const gateway = await startDistributedGateway({
  databasePrefix: `held_${process.pid}`,
  env: { GATEWAY_SHUTDOWN_TIMEOUT: process.env.GATEWAY_SHUTDOWN_TIMEOUT ?? "20s" },
});
process.stdout.write(`ready ${gateway.edgeUrl}\n`);
setInterval(() => {}, 60_000);
