import { GatewayError } from "@gateway/platform";
import type { FastifyInstance } from "fastify";
import { findCatalogEntryByType, renderProblemTypePage } from "../problem/problem-type-pages.js";

/** `GET /errors/<type>`: the human-readable page behind each problem type URI. */
export function registerErrorPagesRoutes(app: FastifyInstance): void {
  app.get<{ Params: { type: string } }>("/errors/:type", async (request, reply) => {
    const entry = findCatalogEntryByType(request.params.type);
    if (!entry) throw new GatewayError("NOT_FOUND", "No problem type has this name.");
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(renderProblemTypePage(entry));
  });
}
