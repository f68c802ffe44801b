import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "../api/openapi.js";
import { renderReferencePage } from "../api/reference-page.js";

/**
 * The API's contract, public and without an API key: GET /api/v1/openapi.json (the document
 * generated from the route schemas, as in docs/api/openapi.json) and /docs, its human reference
 * rendered here from local assets only (no script, no CDN).
 */
export function registerApiDocsRoutes(app: FastifyInstance): void {
  const doc = buildOpenApiDocument();
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  const page = renderReferencePage(doc).text;
  app.get("/api/v1/openapi.json", async (_request, reply) =>
    reply.header("cache-control", "public, max-age=300").type("application/json; charset=utf-8").send(json),
  );
  app.get("/docs", async (_request, reply) =>
    reply
      .header("cache-control", "public, max-age=300")
      .header(
        "content-security-policy",
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      )
      .header("x-content-type-options", "nosniff")
      .type("text/html; charset=utf-8")
      .send(page),
  );
}
