import { type CommandStartedEvent, type Db, type Document, MongoClient } from "mongodb";
import { getsContainmentTwin } from "../local-servers/containment-index-mirror.js";
import { ferretDbBackend, startFerretDb } from "../local-servers/ferretdb-server.js";
import type { LocalServer } from "../local-servers/local-server.js";
import { uniqueDbName } from "./unique-db-name.js";

/** A query a repository sent, reduced to what decides its plan. */
export interface RecordedQuery {
  collection: string;
  /** The command that carried it: find, findAndModify, update, delete or count. */
  command: string;
  filter: Document;
  sort?: Document;
  /** For find: the limit it asked for (findOne asks for 1); undefined when unbounded. */
  limit?: number;
  /** Field names and operators only, values left out: one entry per query pattern. */
  shape: string;
}

const FILTER_OF: Record<string, (cmd: Document) => Document[]> = {
  find: (cmd) => [cmd.filter ?? {}],
  findAndModify: (cmd) => [cmd.query ?? {}],
  update: (cmd) => (cmd.updates ?? []).map((u: Document) => u.q ?? {}),
  delete: (cmd) => (cmd.deletes ?? []).map((d: Document) => d.q ?? {}),
  count: (cmd) => [cmd.query ?? {}],
};

/**
 * Records the distinct query patterns sent through `client` (created with monitorCommands: true)
 * until stop(). Inserts carry no filter and are not recorded.
 */
export function recordQueries(client: MongoClient): { patterns(): RecordedQuery[]; stop(): void } {
  const byShape = new Map<string, RecordedQuery>();
  const listener = (event: CommandStartedEvent): void => {
    const filtersOf = FILTER_OF[event.commandName];
    if (!filtersOf) return;
    const cmd = event.command;
    const collection = String(cmd[event.commandName]);
    for (const filter of filtersOf(cmd)) {
      const sort = cmd.sort as Document | undefined;
      const shape = `${collection} ${event.commandName} ${shapeOf(filter)}${sort ? ` sort ${JSON.stringify(sort)}` : ""}`;
      if (byShape.has(shape)) continue;
      const limit = event.commandName === "find" ? (cmd.limit as number | undefined) : undefined;
      byShape.set(shape, {
        collection,
        command: event.commandName,
        filter,
        ...(sort ? { sort } : {}),
        ...(limit !== undefined ? { limit } : {}),
        shape,
      });
    }
  };
  client.on("commandStarted", listener);
  return { patterns: () => [...byShape.values()], stop: () => void client.off("commandStarted", listener) };
}

/** A filter's own object (`{ field: … }`, `{ $lte: … }`), not a value such as a Date or an ObjectId. */
function isPlainObject(value: unknown): value is Document {
  return Boolean(value) && typeof value === "object" && (value as object).constructor === Object;
}

function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}:${k.startsWith("$") || isPlainObject(v) ? shapeOf(v) : "?"}`)
      .join(",")}}`;
  }
  return "?";
}

/** What is wrong with how the server would run `query`; empty when it is index-shaped and bounded. */
export async function queryPlanProblems(db: Db, query: RecordedQuery): Promise<string[]> {
  const problems: string[] = [];
  const explained = await db.command({
    explain: {
      find: query.collection,
      filter: query.filter,
      ...(query.sort ? { sort: query.sort } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
    },
    verbosity: "queryPlanner",
  });
  if ("filterPushdown" in explained) {
    // FerretDB: whether the filter reached PostgreSQL/SQLite, or every document is read and filtered here.
    if (explained.filterPushdown !== true)
      problems.push("FerretDB does not push this filter down (it reads every document)");
    const equalities = equalityPaths(query.filter);
    if (!equalities.some(getsContainmentTwin))
      problems.push(
        `no equality on a key the local server indexes (${equalities.join(", ") || "none"}), so it reads the whole table`,
      );
  } else {
    // MongoDB semantics: the winning plan must not scan the collection.
    const stages = stagesOf(explained.queryPlanner?.winningPlan);
    if (stages.length === 0) problems.push("no queryPlanner.winningPlan in the explain output");
    if (stages.includes("COLLSCAN")) problems.push(`collection scan (plan: ${stages.join(" > ")})`);
  }
  if (query.command === "find" && !(query.limit && query.limit > 0)) problems.push("find without a limit");
  if (!Object.keys(query.filter).some((key) => !key.startsWith("$")))
    problems.push("no condition on a field");
  return problems;
}

/** The filter's top-level paths matched by equality (a value, `$eq` or `$in`), which an index can look up. */
function equalityPaths(filter: Document): string[] {
  return Object.entries(filter)
    .filter(
      ([path, condition]) =>
        !path.startsWith("$") && (!isPlainObject(condition) || "$eq" in condition || "$in" in condition),
    )
    .map(([path]) => path);
}

function stagesOf(plan: Document | undefined): string[] {
  if (!plan) return [];
  const children = [plan.inputStage, ...(plan.inputStages ?? [])].filter(Boolean) as Document[];
  return [String(plan.stage), ...children.flatMap(stagesOf)];
}

/** A database whose queries are recorded, on a server that reports pushdown (see createQueryPlanDb). */
export interface QueryPlanDb {
  db(): Promise<Db>;
  /** The distinct query patterns recorded so far. */
  patterns(): RecordedQuery[];
  /** One line per recorded pattern with a problem; `skip` leaves out patterns by their shape. */
  failures(skip?: (shape: string) => boolean): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Pushdown is judged on FerretDB over PostgreSQL: the shared test server when it runs on
 * PostgreSQL (the default), else one started on first use (SQLite pushes almost nothing down);
 * PLAN_MONGODB_URL points it at a real MongoDB.
 */
export function createQueryPlanDb(prefix: string): QueryPlanDb {
  let server: LocalServer | undefined;
  let client: MongoClient | undefined;
  let database: Db | undefined;
  let recorder: ReturnType<typeof recordQueries> | undefined;
  const db = async (): Promise<Db> => {
    if (!database) {
      let url =
        process.env.PLAN_MONGODB_URL ??
        (ferretDbBackend() === "postgresql" ? process.env.MONGODB_URL : undefined);
      if (url === undefined) {
        server = await startFerretDb({ backend: "postgresql" });
        url = server.url;
      }
      client = await MongoClient.connect(url, { monitorCommands: true, retryWrites: false });
      recorder = recordQueries(client);
      database = client.db(uniqueDbName(prefix));
    }
    return database;
  };
  return {
    db,
    patterns: () => recorder?.patterns() ?? [],
    async failures(skip = () => false) {
      const failures: string[] = [];
      for (const pattern of recorder?.patterns() ?? []) {
        if (pattern.collection.startsWith("system.") || skip(pattern.shape)) continue;
        const problems = await queryPlanProblems(await db(), pattern);
        if (problems.length > 0) failures.push(`${pattern.shape}: ${problems.join("; ")}`);
      }
      return failures;
    },
    async close() {
      recorder?.stop();
      await database?.dropDatabase();
      await client?.close();
      await server?.stop();
    },
  };
}
