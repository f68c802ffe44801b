import type { JsonOutput } from "@gateway/platform";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import type { FeePlan, Terminal } from "@gateway/proto";
import type { JsonObject } from "../http/json-body.js";
import { violation } from "../mapping/field-violations.js";
import { formatTimestamp } from "../mapping/rfc3339.js";

/**
 * JSON <-> proto for the terminal and fee plan admin calls. Like the other admin bodies, JSON
 * types are checked here (422 before any service call) and meaning is left to accounts.
 * Messages never quote a value: one of these members is a password.
 */
class ConfigBodyReader {
  constructor(
    private readonly body: JsonObject,
    private readonly known: string[],
    readonly violations: FieldViolation[],
  ) {}

  private value(name: string): unknown {
    return Object.hasOwn(this.body, name) && this.body[name] !== null ? this.body[name] : undefined;
  }

  requiredString(name: string, numberMessage?: string): string {
    const value = this.value(name);
    if (value === undefined) this.violations.push(violation.required(name));
    else if (typeof value === "string") return value;
    else
      this.violations.push(
        typeof value === "number" && numberMessage
          ? violation.invalid(name, numberMessage)
          : violation.notString(name),
      );
    return "";
  }

  optionalBoolean(name: string, fallback: boolean): boolean {
    const value = this.value(name);
    if (value === undefined) return fallback;
    if (typeof value === "boolean") return value;
    this.violations.push(violation.invalid(name, "Must be true or false."));
    return fallback;
  }

  finish(): void {
    for (const name of Object.keys(this.body)) {
      if (!this.known.includes(name)) this.violations.push(violation.unknown(name));
    }
    if (this.violations.length > 0) throw GatewayError.validation(this.violations);
  }
}

type Mode = "test" | "live";

/** The `{mode}` path segment; its violation joins the body's so one answer lists every problem. */
function checkMode(raw: string, violations: FieldViolation[]): boolean {
  if (raw !== "test" && raw !== "live")
    violations.push(violation.invalid("mode", 'Must be "test" or "live".'));
  return raw === "live";
}

export function readTerminalMode(raw: string): boolean {
  const violations: FieldViolation[] = [];
  const livemode = checkMode(raw, violations);
  if (violations.length > 0) throw GatewayError.validation(violations);
  return livemode;
}

export interface TerminalBody {
  livemode: boolean;
  baseUrl: string;
  username: string;
  password: string;
  active: boolean;
}

/** `active` may be left out: a terminal being configured is normally meant to be used. */
export function readTerminalBody(mode: string, body: JsonObject): TerminalBody {
  const violations: FieldViolation[] = [];
  const livemode = checkMode(mode, violations);
  const reader = new ConfigBodyReader(body, ["base_url", "username", "password", "active"], violations);
  const baseUrl = reader.requiredString("base_url");
  const username = reader.requiredString("username");
  const password = reader.requiredString("password");
  const active = reader.optionalBoolean("active", true);
  reader.finish();
  return { livemode, baseUrl, username, password, active };
}

export function readFeePlanBody(body: JsonObject): { percent: string; fixed: string } {
  const reader = new ConfigBodyReader(body, ["percent", "fixed"], []);
  const percent = reader.requiredString(
    "percent",
    'Must be a decimal string such as "2.5", not a JSON number.',
  );
  const fixed = reader.requiredString(
    "fixed",
    'Must be a decimal string such as "0.250", not a JSON number.',
  );
  reader.finish();
  return { percent, fixed };
}

/** The terminal as operators see it: there is no password member, whatever accounts holds. */
export function terminalToJson(terminal: Terminal | undefined): JsonOutput {
  if (!terminal) throw new Error("accounts service answered without a terminal");
  const mode: Mode = terminal.livemode ? "live" : "test";
  return {
    merchant_id: terminal.merchantId,
    mode,
    base_url: terminal.baseUrl,
    username: terminal.username,
    active: terminal.active,
    updated_at: formatTimestamp(terminal.updatedAt),
  };
}

/** `updated_at` is null for the default plan of a merchant that never had one set. */
export function feePlanToJson(plan: FeePlan | undefined): JsonOutput {
  if (!plan) throw new Error("accounts service answered without a fee plan");
  return {
    merchant_id: plan.merchantId,
    percent: plan.percent,
    fixed: plan.fixed,
    updated_at: formatTimestamp(plan.updatedAt),
  };
}
