import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { postgresBinDir } from "./postgres-binaries.js";

const run = promisify(execFile);

/**
 * FerretDB 1.24 stores each collection as a PostgreSQL table of jsonb documents. For an index
 * the gateway asks for it creates a btree on `(_jsonb -> 'field')`, but it pushes every equality
 * down as containment, `_jsonb -> 'field' @> value`, which a btree cannot answer: every lookup,
 * even by `_id`, reads the whole table, so the local stack slows as data grows where MongoDB
 * would not. This event trigger gives each key of every such btree, bar KEYS_WITHOUT_TWIN, a GIN
 * index on the same expression, which containment can use, so the local server honours the
 * indexes the gateway asks for (docs/decisions.md#the-local-database-honours-the-gateways-indexes).
 *
 * One GIN per key, not one per index: a multi-column GIN evaluates every column's condition,
 * and `mode` alone matches nearly every document. `fastupdate = off` keeps lookups from reading a
 * pending list that grows with bulk inserts.
 */

/**
 * Top-level keys that get no twin, because no lookup is answered by containment on them: the
 * live/test flag matches half or all of a merchant's documents, and times and attempt numbers
 * are only sorted by or compared by range, which FerretDB does not push down. Every query that
 * names one of them also names a selective key whose twin answers it. Each twin is written on
 * every insert and update, so one that is never read only costs
 * (docs/decisions.md#the-local-database-twins-only-the-keys-lookups-use).
 */
const KEYS_WITHOUT_TWIN: readonly string[] = [
  "livemode",
  "createdAt",
  "updatedAt",
  "submittedAt",
  "dueAt",
  "nextDueAt",
  "attemptNumber",
];

/** Whether an equality on `path` can be answered from a twin, were the path a key of an index. */
export function getsContainmentTwin(path: string): boolean {
  return path.includes(".") || !KEYS_WITHOUT_TWIN.includes(path);
}

/** How pg_get_indexdef renders one key of FerretDB's btree, e.g. `(_jsonb -> 'livemode'::text)`. */
const keyExpression = (field: string): string => `'(_jsonb -> ''${field}''::text)'`;

const MIRROR_SQL = `
CREATE FUNCTION gateway_mirror_index_for_containment() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  created record;
  table_name text;
  index_key text;
BEGIN
  FOR created IN SELECT objid FROM pg_event_trigger_ddl_commands()
                 WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    CONTINUE WHEN pg_get_indexdef(created.objid) NOT LIKE '% USING btree (%';
    SELECT indrelid::regclass::text INTO table_name FROM pg_index WHERE indexrelid = created.objid;
    FOR index_key IN
      SELECT pg_get_indexdef(created.objid, n, true)
      FROM generate_series(1, (SELECT indnkeyatts FROM pg_index WHERE indexrelid = created.objid)) AS n
    LOOP
      CONTINUE WHEN index_key = ANY (ARRAY[${KEYS_WITHOUT_TWIN.map(keyExpression).join(", ")}]::text[]);
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((%s)) WITH (fastupdate = off)',
        'gin_' || md5(table_name || index_key), table_name, index_key);
    END LOOP;
  END LOOP;
END $$;
CREATE EVENT TRIGGER gateway_mirror_index_for_containment ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION gateway_mirror_index_for_containment();
`;

/** Installs the trigger in the database at `postgresUrl`; run it before FerretDB creates any index. */
export async function installContainmentIndexMirror(postgresUrl: string): Promise<void> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error("PostgreSQL's psql was not found");
  const psql = run(join(binDir, "psql"), [postgresUrl, "-q", "-v", "ON_ERROR_STOP=1", "-f", "-"]);
  psql.child.stdin?.end(MIRROR_SQL);
  try {
    await psql;
  } catch (err) {
    const detail = (err as { stderr?: string }).stderr ?? (err as Error).message;
    throw new Error(`installing the containment index mirror failed: ${detail}`, { cause: err });
  }
}
