import { parseArgs } from "node:util";
import { GatewayConnectionError, GatewayProblemError } from "../problem-error.js";
import { listDeliveries, resendDelivery } from "./commands/deliveries.js";
import { listen } from "./commands/listen.js";
import { login } from "./commands/login.js";
import { getSession, listSessions } from "./commands/sessions.js";
import { TRIGGERS, trigger } from "./commands/trigger.js";
import { type CliContext, configPath, UsageError } from "./context.js";
import { createOutput, type Streams } from "./output.js";

export const USAGE = `Usage: gateway <command> [options]

  login [--api-key sk_test_…] [--base-url URL]   store a test key (read from stdin without --api-key)
  listen --forward-to URL [--events a,b]           forward test-mode events, signed, to a local URL
  trigger ${TRIGGERS.join("|")}   [--timeout SECONDS]
  sessions list [--limit N] [--status S] [--reference R] [--starting-after ID]
  sessions get <session_id>
  deliveries list [--session ID] [--status S] [--event E] [--limit N] [--starting-after ID]
  deliveries resend <delivery_id>

Options for every command: --json (machine-readable output), --api-key, --base-url.
Environment: GATEWAY_API_KEY, GATEWAY_URL, GATEWAY_CONFIG (config file path), NO_COLOR.`;

export interface CliIo extends Streams {
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  readStdin(): Promise<string>;
}

/** Runs one command; resolves with the exit code (0 done, 1 refused by the gateway or failed, 2 usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const out = createOutput(values.json === true, io, io.env);
  if (values.help || positionals.length === 0) {
    (values.help ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const ctx: CliContext = {
    out,
    env: io.env,
    configPath: configPath(io.env),
    flags: { apiKey: values["api-key"], baseUrl: values["base-url"] },
    signal: io.signal,
    readStdin: io.readStdin,
  };
  const [command, sub, arg] = positionals;
  try {
    if (command === "login") await login(ctx);
    else if (command === "listen")
      await listen(ctx, { forwardTo: values["forward-to"], events: values.events });
    else if (command === "trigger") await trigger(ctx, sub, { timeout: values.timeout });
    else if (command === "sessions" && sub === "list")
      await listSessions(ctx, {
        limit: values.limit,
        status: values.status,
        reference: values.reference,
        startingAfter: values["starting-after"],
      });
    else if (command === "sessions" && sub === "get") await getSession(ctx, arg);
    else if (command === "deliveries" && sub === "list")
      await listDeliveries(ctx, {
        limit: values.limit,
        status: values.status,
        event: values.event,
        session: values.session,
        startingAfter: values["starting-after"],
      });
    else if (command === "deliveries" && sub === "resend") await resendDelivery(ctx, arg);
    else throw new UsageError(`Unknown command: ${positionals.join(" ")}\n\n${USAGE}`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof GatewayProblemError) {
      if (out.json) io.stdout.write(`${JSON.stringify({ error: error.problem }, null, 2)}\n`);
      const fields = error.errors.map((e) => `\n  ${e.field}: ${e.message} (${e.code})`).join("");
      out.error(`${out.colour.red("✘")} ${error.status} ${error.title}: ${error.detail}${fields}`);
      return 1;
    }
    if (error instanceof GatewayConnectionError || error instanceof Error) {
      out.error(`${out.colour.red("✘")} ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      "api-key": { type: "string" },
      "base-url": { type: "string" },
      "forward-to": { type: "string" },
      events: { type: "string" },
      limit: { type: "string" },
      status: { type: "string" },
      reference: { type: "string" },
      "starting-after": { type: "string" },
      event: { type: "string" },
      session: { type: "string" },
      timeout: { type: "string" },
    },
  });
}
