import type { Bindings, ChildLoggerOptions, Level, Logger } from "pino";

/** A log call's arguments, as pino takes them: an object or a message first. */
type LogArgs = [objOrMsg: unknown, msg?: string, ...args: unknown[]];

/**
 * A child logger that is made only when it first writes a line, or when something asks for
 * what only a made child has (its own level, a child of its own). Until then it is the parent's
 * level and nothing else, so a request that logs nothing makes no pino child: making one
 * serialises its bindings through every redaction path, and fastify makes one for every request
 * (docs/decisions.md#a-requests-logger-is-made-when-it-first-writes).
 *
 * The line it writes is the one the child would have written then: same bindings, same
 * redaction, same mixins, since it is that child that writes it.
 */
export class DeferredChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.pinoChild().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write("fatal", args);
  }

  error(...args: LogArgs): void {
    this.write("error", args);
  }

  warn(...args: LogArgs): void {
    this.write("warn", args);
  }

  info(...args: LogArgs): void {
    this.write("info", args);
  }

  debug(...args: LogArgs): void {
    this.write("debug", args);
  }

  trace(...args: LogArgs): void {
    this.write("trace", args);
  }

  /** pino's `silent` level writes nothing, whatever it is given. */
  silent(..._args: LogArgs): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.pinoChild().child(bindings, options);
  }

  private write(level: Level, args: LogArgs): void {
    if (!this.isLevelEnabled(level)) return;
    const child = this.pinoChild();
    Reflect.apply(child[level], child, args);
  }

  /** The pino child itself, made on first need. */
  private pinoChild(): Logger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }
}

/**
 * fastify's `childLoggerFactory` for request loggers: a deferred child when the route asks for
 * nothing of its own, else pino's child at once (a route's own level or serialisers).
 */
export function deferredChildLoggerFactory(
  parent: Logger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): Logger | DeferredChildLogger {
  return Object.keys(options).length > 0
    ? parent.child(bindings, options)
    : new DeferredChildLogger(parent, bindings);
}
