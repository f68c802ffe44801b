/** The gateway's processes that call or serve internal gRPC, as they name themselves in tokens. */
export const GATEWAY_SERVICES = ["edge", "accounts", "sessions", "refunds", "webhooks"] as const;
export type GatewayServiceName = (typeof GATEWAY_SERVICES)[number];

export function isGatewayServiceName(value: string): value is GatewayServiceName {
  return (GATEWAY_SERVICES as readonly string[]).includes(value);
}
