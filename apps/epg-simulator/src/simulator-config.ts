import { type ConfigOf, parse, shutdownConfigSpec } from "@gateway/platform";

/** Environment of the standalone EPG simulator process. */
export const simulatorConfigSpec = {
  port: { env: "PORT", description: "HTTP port", default: "50060", parse: parse.port },
  host: { env: "HOST", description: "address to listen on", default: "127.0.0.1", parse: parse.string },
  publicUrl: {
    env: "EPG_SIM_PUBLIC_URL",
    description:
      "URL buyers' browsers reach the simulator at (card page links); the listening address when unset",
    optional: true as const,
    parse: parse.url,
  },
  username: {
    env: "EPG_SIM_USERNAME",
    description: "terminal user name the simulator accepts",
    default: "sim-merchant",
    parse: parse.string,
  },
  password: {
    env: "EPG_SIM_PASSWORD",
    description: "terminal password the simulator accepts",
    default: "sim-password",
    secret: true,
    parse: parse.string,
  },
  callbackUrl: {
    env: "EPG_SIM_CALLBACK_URL",
    description: "where BPC-style payment callbacks are sent (none when unset)",
    optional: true as const,
    parse: parse.url,
  },
  orderTimeout: {
    env: "EPG_SIM_ORDER_TIMEOUT",
    description: "longest payment window of an order",
    default: "20m",
    parse: parse.duration,
  },
  lateApprovalDelay: {
    env: "EPG_SIM_LATE_APPROVAL_DELAY",
    description: "how long the late-approval test card stays pending",
    default: "5s",
    parse: parse.duration,
  },
  timeoutCardDelay: {
    env: "EPG_SIM_TIMEOUT_CARD_DELAY",
    description: "how long status calls hang for the processor-timeout test card",
    default: "20s",
    parse: parse.duration,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type SimulatorConfig = ConfigOf<typeof simulatorConfigSpec>;
