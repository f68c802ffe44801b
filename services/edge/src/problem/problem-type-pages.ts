import { type CatalogEntry, errorCatalog } from "@gateway/platform";

/**
 * Human-readable explanations behind each problem `type` URI (docs/api/errors.md#problem-types), so that the URIs are
 * dereferenceable when `errors_url` points at the edge. Clients branch on the type, not on
 * this text.
 */
const EXPLANATIONS: Record<string, { meaning: string; retry: string }> = {
  unauthorized: {
    meaning: "The API key is missing, malformed, expired or revoked.",
    retry: "No. Send a valid key as `Authorization: Bearer <key>`.",
  },
  forbidden: {
    meaning:
      "The caller is authenticated but not allowed to do this (for example, a live key for an unverified merchant).",
    retry: "No.",
  },
  "not-found": {
    meaning: "The resource does not exist for this account, or the path is not part of the API.",
    retry: "No.",
  },
  conflict: {
    meaning:
      "The request conflicts with the current state; a repeated merchant_reference with different payment fields names the existing session in existing_session_id.",
    retry: "No.",
  },
  "session-terminal": {
    meaning: "The session already reached a terminal state (SUCCEEDED, FAILED or EXPIRED).",
    retry: "No.",
  },
  "validation-error": {
    meaning: "One or more fields failed validation; the errors array lists each field with a code.",
    retry: "No. Fix the listed fields.",
  },
  "checkout-limit-exceeded": { meaning: "The session has too many active checkouts.", retry: "No." },
  "invalid-state": {
    meaning:
      "The operation is not allowed in the session's current state, for example refunding a session that did not succeed.",
    retry: "No.",
  },
  "no-payment": { meaning: "There is no successful payment to act on.", retry: "No." },
  "refund-failed": { meaning: "The refund could not be completed.", retry: "No." },
  "no-terminal-configured": {
    meaning: "The account has no acquirer terminal configured for this mode.",
    retry: "No, the merchant configuration must change.",
  },
  "terminal-inactive": {
    meaning: "The account's acquirer terminal is inactive.",
    retry: "No, the merchant configuration must change.",
  },
  "terminal-rejected": {
    meaning: "The acquirer rejected the terminal credentials.",
    retry: "No, the merchant configuration must change.",
  },
  "rate-limit-exceeded": {
    meaning: "Too many requests for this account and mode.",
    retry: "Yes, after the number of seconds in the Retry-After header.",
  },
  "processor-unavailable": {
    meaning: "The acquirer is unreachable or did not answer in time.",
    retry: "Yes.",
  },
  "service-unavailable": {
    meaning: "A gateway dependency is temporarily unavailable.",
    retry: "Yes, after the number of seconds in the Retry-After header.",
  },
  "internal-error": {
    meaning: "An unexpected server error.",
    retry: "Yes, with backoff. Quote the Request-Id header when contacting support.",
  },
  "bad-request": {
    meaning: "The request could not be read: the body is not valid JSON or is not a JSON object.",
    retry: "No.",
  },
  "payload-too-large": { meaning: "The request body is larger than the gateway accepts.", retry: "No." },
  "unsupported-media-type": {
    meaning: "Request bodies must be JSON, sent with Content-Type: application/json.",
    retry: "No.",
  },
  "method-not-allowed": {
    meaning: "The path exists but does not accept this HTTP method; the Allow header lists those it does.",
    retry: "No.",
  },
};

export function findCatalogEntryByType(problemType: string): CatalogEntry | undefined {
  return Object.values(errorCatalog).find((entry) => entry.problemType === problemType);
}

export function renderProblemTypePage(entry: CatalogEntry): string {
  const explanation = EXPLANATIONS[entry.problemType];
  const rows = [
    `<p><strong>HTTP status:</strong> ${entry.httpStatus}</p>`,
    explanation ? `<p>${escapeHtml(explanation.meaning)}</p>` : "",
    explanation ? `<p><strong>Retry:</strong> ${escapeHtml(explanation.retry)}</p>` : "",
  ].filter((row) => row !== "");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(entry.title)}</title>`,
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(entry.title)}</h1>`,
    `<p><code>${escapeHtml(entry.problemType)}</code></p>`,
    ...rows,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
