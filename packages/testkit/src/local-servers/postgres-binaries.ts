import { execFile } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The directory holding all of PostgreSQL's initdb, postgres, pg_isready and psql, or undefined. */
export function postgresBinDir(): string | undefined {
  const override = process.env.GATEWAY_POSTGRES_BIN_DIR;
  if (override) return override;
  // Debian keeps them off PATH in /usr/lib/postgresql/<major>/bin; some machines link them onto PATH.
  const candidates = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  try {
    const majors = readdirSync("/usr/lib/postgresql")
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((major) => `/usr/lib/postgresql/${major}/bin`));
  } catch {
    // No Debian layout: PATH only.
  }
  return candidates.find((dir) =>
    ["initdb", "postgres", "pg_isready", "psql"].every((program) => isExecutable(join(dir, program))),
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL refuses to run as root. When this process is root (CI containers, this machine), the
 * cluster runs as an unprivileged account instead: `postgres` when it exists, else `nobody`.
 * Returns the prefix that drops privileges (setpriv execs, so the pid stays the server's) and the
 * uid/gid that must own the cluster's directories; no prefix when we are not root.
 */
export interface ServerIdentity {
  prefix: string[];
  uid: number;
  gid: number;
}

export async function serverIdentity(): Promise<ServerIdentity> {
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) return { prefix: [], uid, gid: process.getgid?.() ?? -1 };
  for (const user of ["postgres", "nobody"]) {
    try {
      const [userId, groupId] = await Promise.all([run("id", ["-u", user]), run("id", ["-g", user])]);
      const account = { uid: Number(userId.stdout.trim()), gid: Number(groupId.stdout.trim()) };
      return {
        ...account,
        prefix: ["setpriv", `--reuid=${account.uid}`, `--regid=${account.gid}`, "--clear-groups", "--"],
      };
    } catch {
      // No such account: try the next one.
    }
  }
  throw new Error(
    "running as root, but neither a 'postgres' nor a 'nobody' account exists to run PostgreSQL as",
  );
}
