export { embeddedConfigSpec } from "./embedded-config.js";
export { startEmbeddedGateway, type EmbeddedGateway } from "./embedded-gateway.js";
export {
  startDistributedGateway,
  type DistributedGateway,
  type DistributedGatewayOptions,
  type GatewayProcessName,
} from "./distributed-gateway.js";
export { compiledEntry, launcherEntries, serviceEntries, type ServiceName } from "./service-entries.js";
