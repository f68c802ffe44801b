import { setTimeout as sleep } from "node:timers/promises";
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type Health,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as Status,
} from "@gateway/proto";
import type { ReadinessReport } from "./readiness.js";

export interface HealthServiceOptions {
  /** Names a client may ask about besides "": the service's short name and its gRPC services. */
  knownServices: () => ReadonlySet<string>;
  readiness: () => Promise<ReadinessReport>;
  /** Aborted when the server shuts down, so open Watch streams end and do not hold the drain. */
  closing: AbortSignal;
  watchIntervalMs?: number;
}

/** The standard `grpc.health.v1.Health` service, answered from the readiness checks. */
export function createHealthService(o: HealthServiceOptions): ServiceImpl<typeof Health> {
  const statusOf = async (service: string): Promise<Status> => {
    if (service !== "" && !o.knownServices().has(service)) return Status.SERVICE_UNKNOWN;
    return (await o.readiness()).ready ? Status.SERVING : Status.NOT_SERVING;
  };
  return {
    async check(req) {
      return create(HealthCheckResponseSchema, { status: await statusOf(req.service) });
    },
    // Sends the current status, then a new message only when it changes, until the client or
    // the server goes away.
    async *watch(req, ctx) {
      const stop = AbortSignal.any([ctx.signal, o.closing]);
      let last: Status | undefined;
      while (!stop.aborted) {
        const status = await statusOf(req.service);
        if (status !== last) {
          last = status;
          yield create(HealthCheckResponseSchema, { status });
        }
        try {
          await sleep(o.watchIntervalMs ?? 5_000, undefined, { signal: stop });
        } catch {
          return; // aborted
        }
      }
    },
  };
}
