import { parseArgs } from "node:util";

export const DEFAULT_GATEWAY_URL = "http://127.0.0.1:8080";

export const USAGE = `Usage: npm run admin -- <command>

Commands:
  merchants create --name <name>                       create a merchant
  merchants verify <merchant_id>                       mark a merchant verified (live keys need it)
  keys create <merchant_id> --mode test|live [--expires-at <RFC 3339>]
                                                       issue an API key (the key is shown once)
  keys revoke <key_id>                                 revoke an API key
  dashboard invite <merchant_id> <email> --role owner|developer|viewer
                                                       invite a dashboard user: prints the one-time
                                                       link (7 days) to hand over; no mail is sent
  dashboard users <merchant_id>                        list the merchant's dashboard users
  verification list                                    business details waiting for a decision, oldest first
  verification show <merchant_id>                      one merchant's submitted details and their state
  verification approve <merchant_id>                   approve them: the merchant is verified (live opens)
  verification reject <merchant_id> --reason <text>    reject them; the merchant sees the reason
  rates set <merchant_id> <CURRENCY> <rate>            1 unit of CURRENCY = rate TND
  terminals set <merchant_id> test|live --base-url <url> --username <name>
                [--password <password>] [--inactive]
                                                       configure the acquirer terminal of a mode
                                                       (live needs a verified merchant and https)
  terminals show <merchant_id> test|live               show a terminal (never its password)
  fees set <merchant_id> --percent <percent> --fixed <TND>
                                                       fee = amount x percent / 100 + fixed,
                                                       e.g. --percent 2.5 --fixed 0.300
  fees show <merchant_id>                              show the fee plan (0 and 0.000 by default)
  webhooks set-endpoint <merchant_id> test|live --url <url>
                                                       set the mode's webhook URL (the whsec_ secret
                                                       is shown only when this creates it)
  webhooks rotate-secret <merchant_id> test|live       new secret; the old one keeps signing for the
                                                       overlap window (GATEWAY_WEBHOOK_SECRET_OVERLAP)
  webhooks resend <delivery_id>                        resend one delivery (same webhook id, current secret)
  webhooks resend-all <merchant_id> test|live [--status PENDING|SUCCEEDED|FAILED] [--event <type>]
                [--created-gte <RFC 3339>] [--created-lte <RFC 3339>]
                                                       resend every event whose latest delivery matches
                                                       (at most 1000 per call: repeat with --created-lte
                                                       set to the answer's created_lte until resent is 0)
  refunds manual [--limit <n>]                         operations' queue of refunds the acquirer did not
                                                       confirm, every account, oldest first (1-100, default 20;
                                                       resolve them and list again for the next ones)
  refunds resolve <refund_id> --outcome SUCCEEDED|FAILED [--note <text>]
                                                       settle a manual refund (FAILED gives its amount
                                                       back to the session's refundable balance)

Environment:
  GATEWAY_URL                 gateway base URL (default ${DEFAULT_GATEWAY_URL})
  GATEWAY_ADMIN_TOKEN         admin API token (required)
  GATEWAY_TERMINAL_PASSWORD   terminal password for 'terminals set' when --password is not
                              given (keeps it out of shell history and the process list)

Prints the JSON answer; on an error prints the problem document to stderr and exits 1.
`;

/** A command line that cannot be run as written; exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface AdminRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path under the gateway base URL, ids already encoded. */
  path: string;
  body?: Record<string, string | boolean>;
}

export type ParsedCommand = { kind: "help" } | { kind: "request"; request: AdminRequest };

const OPTIONS = {
  name: { type: "string" },
  mode: { type: "string" },
  "expires-at": { type: "string" },
  "base-url": { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  inactive: { type: "boolean" },
  percent: { type: "string" },
  fixed: { type: "string" },
  url: { type: "string" },
  status: { type: "string" },
  event: { type: "string" },
  "created-gte": { type: "string" },
  "created-lte": { type: "string" },
  limit: { type: "string" },
  outcome: { type: "string" },
  note: { type: "string" },
  role: { type: "string" },
  reason: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type OptionName = keyof typeof OPTIONS;

/** `env` supplies GATEWAY_TERMINAL_PASSWORD for `terminals set` without --password. */
export function parseAdminArgs(argv: string[], env: NodeJS.ProcessEnv = {}): ParsedCommand {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return { kind: "help" };
  const [group, action, ...args] = positionals;
  const command = `${group} ${action ?? ""}`.trim();
  const allowOnly = (...allowed: OptionName[]) => {
    for (const name of Object.keys(values) as OptionName[]) {
      if (name !== "help" && !allowed.includes(name))
        throw new UsageError(`'${command}' does not take --${name}`);
    }
  };
  const requireOption = (name: OptionName, value: string | undefined): string => {
    if (value === undefined || value.trim() === "")
      throw new UsageError(`${command} needs --${name} <value>`);
    return value;
  };
  const requireMode = (mode: string | undefined): string => {
    if (mode !== "test" && mode !== "live")
      throw new UsageError(`${command} takes the mode test or live after <merchant_id>`);
    return mode;
  };
  const expectArgs = (names: string[]) => {
    if (args.length !== names.length) {
      throw new UsageError(
        `'${command}' takes ${names.length === 0 ? "no arguments" : names.map((n) => `<${n}>`).join(" ")}`,
      );
    }
    return args.map((a) => encodeURIComponent(a));
  };

  switch (command) {
    case "merchants create": {
      allowOnly("name");
      expectArgs([]);
      if (values.name === undefined || values.name.trim() === "")
        throw new UsageError("merchants create needs --name <name>");
      return request("POST", "/admin/v1/merchants", { name: values.name });
    }
    case "merchants verify": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("POST", `/admin/v1/merchants/${merchantId}/verification`);
    }
    case "keys create": {
      allowOnly("mode", "expires-at");
      const [merchantId] = expectArgs(["merchant_id"]);
      if (values.mode !== "test" && values.mode !== "live")
        throw new UsageError("keys create needs --mode test or --mode live");
      const body: Record<string, string> = { mode: values.mode };
      if (values["expires-at"] !== undefined) body.expires_at = values["expires-at"];
      return request("POST", `/admin/v1/merchants/${merchantId}/api-keys`, body);
    }
    case "keys revoke": {
      allowOnly();
      const [keyId] = expectArgs(["key_id"]);
      return request("DELETE", `/admin/v1/api-keys/${keyId}`);
    }
    case "dashboard invite": {
      allowOnly("role");
      const [merchantId] = expectArgs(["merchant_id", "email"]);
      const role = requireOption("role", values.role);
      return request("POST", `/admin/v1/merchants/${merchantId}/dashboard-invitations`, {
        email: args[1]!,
        role,
      });
    }
    case "dashboard users": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("GET", `/admin/v1/merchants/${merchantId}/dashboard-users`);
    }
    case "verification list": {
      allowOnly();
      expectArgs([]);
      return request("GET", "/admin/v1/business-verifications");
    }
    case "verification show": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("GET", `/admin/v1/merchants/${merchantId}/business-verification`);
    }
    case "verification approve": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("POST", `/admin/v1/merchants/${merchantId}/business-verification/approve`);
    }
    case "verification reject": {
      allowOnly("reason");
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("POST", `/admin/v1/merchants/${merchantId}/business-verification/reject`, {
        reason: requireOption("reason", values.reason),
      });
    }
    case "rates set": {
      allowOnly();
      const [merchantId, currency] = expectArgs(["merchant_id", "CURRENCY", "rate"]);
      return request("PUT", `/admin/v1/merchants/${merchantId}/exchange-rates/${currency}`, {
        rate: args[2]!,
      });
    }
    case "terminals set": {
      allowOnly("base-url", "username", "password", "inactive");
      const [merchantId] = expectArgs(["merchant_id", "mode"]);
      const mode = requireMode(args[1]);
      const password = values.password ?? env.GATEWAY_TERMINAL_PASSWORD;
      if (password === undefined || password === "") {
        throw new UsageError(
          "terminals set needs --password <password> (or GATEWAY_TERMINAL_PASSWORD in the environment)",
        );
      }
      return request("PUT", `/admin/v1/merchants/${merchantId}/terminals/${mode}`, {
        base_url: requireOption("base-url", values["base-url"]),
        username: requireOption("username", values.username),
        password,
        active: values.inactive !== true,
      });
    }
    case "terminals show": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id", "mode"]);
      return request("GET", `/admin/v1/merchants/${merchantId}/terminals/${requireMode(args[1])}`);
    }
    case "fees set": {
      allowOnly("percent", "fixed");
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("PUT", `/admin/v1/merchants/${merchantId}/fees`, {
        percent: requireOption("percent", values.percent),
        fixed: requireOption("fixed", values.fixed),
      });
    }
    case "fees show": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id"]);
      return request("GET", `/admin/v1/merchants/${merchantId}/fees`);
    }
    case "webhooks set-endpoint": {
      allowOnly("url");
      const [merchantId] = expectArgs(["merchant_id", "mode"]);
      return request("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/${requireMode(args[1])}`, {
        url: requireOption("url", values.url),
      });
    }
    case "webhooks rotate-secret": {
      allowOnly();
      const [merchantId] = expectArgs(["merchant_id", "mode"]);
      return request(
        "POST",
        `/admin/v1/merchants/${merchantId}/webhook-endpoints/${requireMode(args[1])}/rotate-secret`,
      );
    }
    case "webhooks resend": {
      allowOnly();
      const [deliveryId] = expectArgs(["delivery_id"]);
      return request("POST", `/admin/v1/webhook-deliveries/${deliveryId}/resend`);
    }
    case "webhooks resend-all": {
      allowOnly("status", "event", "created-gte", "created-lte");
      const [merchantId] = expectArgs(["merchant_id", "mode"]);
      const filter: Record<string, string> = { merchant_id: merchantId!, mode: requireMode(args[1]) };
      if (values.status !== undefined) filter.status = values.status;
      if (values.event !== undefined) filter.event = values.event;
      if (values["created-gte"] !== undefined) filter.created_gte = values["created-gte"];
      if (values["created-lte"] !== undefined) filter.created_lte = values["created-lte"];
      return request("POST", "/admin/v1/webhook-deliveries/resend", filter);
    }
    case "refunds manual": {
      allowOnly("limit");
      expectArgs([]);
      const limit =
        values.limit === undefined
          ? ""
          : `?limit=${encodeURIComponent(requireOption("limit", values.limit))}`;
      return request("GET", `/admin/v1/refunds/manual${limit}`);
    }
    case "refunds resolve": {
      allowOnly("outcome", "note");
      const [refundId] = expectArgs(["refund_id"]);
      if (values.outcome !== "SUCCEEDED" && values.outcome !== "FAILED")
        throw new UsageError("refunds resolve needs --outcome SUCCEEDED or --outcome FAILED");
      const body: Record<string, string> = { outcome: values.outcome };
      if (values.note !== undefined) body.note = values.note;
      return request("POST", `/admin/v1/refunds/${refundId}/resolution`, body);
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

function request(method: AdminRequest["method"], path: string, body?: AdminRequest["body"]): ParsedCommand {
  return { kind: "request", request: body === undefined ? { method, path } : { method, path, body } };
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  fetch: typeof fetch;
}

/** Runs one admin command; returns the process exit code (0 ok, 1 failed call, 2 usage). */
export async function runAdminCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let command: ParsedCommand;
  try {
    command = parseAdminArgs(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`error: ${err.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (command.kind === "help") {
    io.stdout(USAGE);
    return 0;
  }
  const token = env.GATEWAY_ADMIN_TOKEN;
  if (!token) {
    io.stderr("error: GATEWAY_ADMIN_TOKEN is not set (the admin API needs it).\n");
    return 2;
  }
  const baseUrl = (env.GATEWAY_URL || DEFAULT_GATEWAY_URL).replace(/\/+$/, "");
  const { method, path, body } = command.request;
  let response: Response;
  try {
    response = await io.fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    const why =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    io.stderr(`error: cannot reach the gateway at ${baseUrl}: ${why}\n`);
    return 1;
  }
  const text = await response.text();
  const output = `${prettyJson(text)}\n`;
  if (response.ok) {
    io.stdout(output);
    return 0;
  }
  io.stderr(output);
  return 1;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
