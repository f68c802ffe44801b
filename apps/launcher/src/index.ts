export {
  type DistributedGateway,
  type DistributedGatewayOptions,
  type GatewayProcessName,
  startDistributedGateway,
} from "./distributed-gateway.js";
export { embeddedConfigSpec } from "./embedded-config.js";
export { type EmbeddedGateway, startEmbeddedGateway } from "./embedded-gateway.js";
export { type EmbeddedProcess, startEmbeddedProcess } from "./embedded-process.js";
export { EMBEDDED_NODE_ARGS, embeddedLaunch, SERVICE_NODE_ARGS } from "./node-launch.js";
export { compiledEntry, launcherEntries, type ServiceName, serviceEntries } from "./service-entries.js";
