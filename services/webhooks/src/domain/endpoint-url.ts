import { checkHttpUrl, GatewayError } from "@gateway/platform";

/**
 * Checks a webhook endpoint URL with the gateway's one URL validator: absolute http(s), a valid
 * host, no user:password part (it would be sent on every delivery and shown in the history), no
 * #fragment, https in live mode. Whether the address is reachable and public is the deliverer's
 * business at send time.
 */
export function validateEndpointUrl(raw: string, livemode: boolean): string {
  const text = raw.trim();
  if (text === "")
    throw GatewayError.validation([
      { field: "url", code: "required", message: "A webhook URL is required." },
    ]);
  const checked = checkHttpUrl(text, { httpsOnly: livemode, forbidFragment: true });
  if (!checked.ok)
    throw GatewayError.validation([{ field: "url", code: "invalid", message: `url ${checked.message}` }]);
  return text;
}
