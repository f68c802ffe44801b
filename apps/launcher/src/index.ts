export {
  type DistributedGateway,
  type DistributedGatewayOptions,
  type GatewayProcessName,
  startDistributedGateway,
} from "./distributed-gateway.js";
export { embeddedConfigSpec } from "./embedded-config.js";
export { type EmbeddedGateway, startEmbeddedGateway } from "./embedded-gateway.js";
export { EMBEDDED_NODE_ARGS } from "./embedded-heap.js";
export { type EmbeddedProcess, startEmbeddedProcess } from "./embedded-process.js";
export { compiledEntry, launcherEntries, type ServiceName, serviceEntries } from "./service-entries.js";
