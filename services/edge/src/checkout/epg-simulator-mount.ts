import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";

/** What the edge needs of the EPG simulator (@gateway/epg-simulator's createEpgSimulator) to serve it. */
export interface MountableEpgSimulator {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * Serves /epg/* (the simulator's protocol endpoints and card page) from the edge in embedded
 * mode. The simulator reads its own form bodies, so the request is handed over raw in the
 * route's onRequest hook: before fastify's content-type parsing (which, on this edge, would
 * refuse a form body with 415) and before any body is read. The gateway's onRequest hooks
 * (request id, tracing, shutdown) have already run.
 */
export function mountEpgSimulator(app: FastifyInstance, simulator: MountableEpgSimulator): void {
  app.all("/epg/*", {
    onRequest: async (request, reply) => {
      reply.raw.setHeader("request-id", request.id);
      reply.hijack();
      simulator.handle(request.raw, reply.raw);
    },
    handler: async () => {
      throw new Error("unreachable: the EPG simulator answers in onRequest");
    },
  });
}
