import { GatewayError } from "@gateway/platform";

export const MAX_URL_LENGTH = 2048;

/**
 * Checks a webhook endpoint URL: absolute http(s), at most 2048 characters, no user:password
 * part (it would be sent on every delivery and shown in the history), https in live mode.
 * Whether the address is reachable and public is the deliverer's business at send time.
 */
export function validateEndpointUrl(raw: string, livemode: boolean): string {
  const invalid = (message: string) => GatewayError.validation([{ field: "url", code: "invalid", message }]);
  const text = raw.trim();
  if (text === "") throw GatewayError.validation([{ field: "url", code: "required", message: "A webhook URL is required." }]);
  if (text.length > MAX_URL_LENGTH) throw invalid(`Must be at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("Must be an absolute http:// or https:// URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("Must be an absolute http:// or https:// URL.");
  if (livemode && url.protocol !== "https:") throw invalid("Live mode webhooks must use https://.");
  if (url.username !== "" || url.password !== "") throw invalid("Must not contain a user name or password.");
  if (url.hash !== "") throw invalid("Must not contain a #fragment.");
  return text;
}
