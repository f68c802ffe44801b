import { html, joinHtml, type SafeHtml } from "../checkout/html.js";

// The OpenAPI document as JSON: read member by member, shapes as openapi.ts writes them.
// biome-ignore lint/suspicious/noExplicitAny: a walk over a JSON document of known shape
type Json = Record<string, any>;

/**
 * The human reference at /docs: the OpenAPI document rendered on the server, with no script and
 * nothing loaded from elsewhere. Every operation with its parameters, request and response
 * schemas and examples, and the problem types with their statuses.
 */
export function renderReferencePage(doc: Json): SafeHtml {
  const operations: SafeHtml[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json))
      operations.push(renderOperation(method, path, op as Json));
  }
  const problemRows = Object.entries(doc["x-problem-types"] as Json).map(
    ([type, p]) =>
      html`<tr><td><code>${type}</code></td><td>${String(p.status)}</td><td>${p.title}</td><td>${p.description}</td></tr>`,
  );
  const schemas = Object.entries(doc.components.schemas as Json).map(
    ([name, schema]) => html`<section id="schema-${name}"><h3>${name}</h3>${pre(schema)}</section>`,
  );
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} ${doc.info.version}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1d2330}
code,pre{font:13px/1.4 ui-monospace,monospace}pre{background:#f4f5f7;padding:.75rem;overflow-x:auto;border-radius:4px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde;padding:.3rem;text-align:left;vertical-align:top}
.op{border-top:2px solid #dde;margin-top:2rem}.method{font-weight:700;text-transform:uppercase;margin-right:.5rem}
</style></head><body>
<h1>${doc.info.title} <small>${doc.info.version}</small></h1>
<p>${doc.info.description}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<h2>Operations</h2>
<ul>${operations.length > 0 ? joinHtml(Object.entries(doc.paths as Json).flatMap(([path, methods]) => Object.entries(methods as Json).map(([m, op]) => html`<li><a href="#${(op as Json).operationId}"><span class="method">${m}</span><code>${path}</code></a> ${(op as Json).summary}</li>`))) : ""}</ul>
${operations}
<h2 id="problems">Problem types</h2>
<table><thead><tr><th>type suffix</th><th>HTTP</th><th>title</th><th>meaning</th></tr></thead><tbody>${problemRows}</tbody></table>
<h2>Schemas</h2>
${schemas}
</body></html>`;
}

function renderOperation(method: string, path: string, op: Json): SafeHtml {
  const params = (op.parameters as Json[]).map(
    (p) =>
      html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${p.required ? "yes" : "no"}</td><td>${p.description ?? ""}</td></tr>`,
  );
  const body = op.requestBody?.content?.["application/json"];
  const responses = Object.entries(op.responses as Json).map(([status, r]) => {
    const content = (r as Json).content ?? {};
    const json = content["application/json"];
    const problem = content["application/problem+json"];
    return html`<h4>${status}</h4><p>${(r as Json).description}</p>
${json ? html`<details><summary>Schema</summary>${pre(json.schema)}</details><p>Example:</p>${pre(json.example)}` : ""}
${problem ? joinHtml(Object.entries(problem.examples as Json).map(([name, e]) => html`<details><summary>${name}</summary>${pre((e as Json).value)}</details>`)) : ""}`;
  });
  return html`<section class="op" id="${op.operationId}">
<h3><span class="method">${method}</span><code>${path}</code></h3>
<p><strong>${op.summary}.</strong> ${op.description}</p>
${params.length > 0 ? html`<table><thead><tr><th>parameter</th><th>in</th><th>required</th><th>meaning</th></tr></thead><tbody>${params}</tbody></table>` : ""}
${body ? html`<h4>Request body</h4><details><summary>Schema</summary>${pre(body.schema)}</details><p>Example:</p>${pre(body.example)}` : ""}
${responses}
</section>`;
}

const pre = (value: unknown): SafeHtml => html`<pre>${JSON.stringify(value, null, 2)}</pre>`;
