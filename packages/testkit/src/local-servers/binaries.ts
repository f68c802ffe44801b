import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface ServerBinaries {
  ferretdb: string;
  natsServer: string;
}

/** The repository root, found from this file's place in packages/testkit/src/local-servers/. */
export const repoRoot: string = fileURLToPath(new URL("../../../../", import.meta.url));

/** Where scripts/install-servers.sh puts the binaries (GATEWAY_CACHE_DIR overrides `.cache`). */
export function serverBinDir(): string {
  return join(cacheDir(), "bin");
}

export function cacheDir(): string {
  const override = process.env.GATEWAY_CACHE_DIR;
  return override ? resolve(override) : join(repoRoot, ".cache");
}

/**
 * Paths of the FerretDB and nats-server binaries, building them first (scripts/install-servers.sh)
 * when one is missing. The script itself decides about versions, so running it stays the one way
 * to install; here we only avoid its cost when everything is in place.
 */
export async function ensureServerBinaries(): Promise<ServerBinaries> {
  const binDir = serverBinDir();
  const binaries: ServerBinaries = {
    ferretdb: join(binDir, "ferretdb"),
    natsServer: join(binDir, "nats-server"),
  };
  const required = [
    binaries.ferretdb,
    `${binaries.ferretdb}.version`,
    binaries.natsServer,
    `${binaries.natsServer}.version`,
  ];
  const present = await Promise.all(required.map(isPresent));
  if (present.every(Boolean)) return binaries;

  await runInstallScript();
  for (const binary of [binaries.ferretdb, binaries.natsServer]) {
    if (!(await isExecutable(binary))) {
      throw new Error(`scripts/install-servers.sh finished but ${binary} is not an executable file`);
    }
  }
  return binaries;
}

async function isPresent(path: string): Promise<boolean> {
  return access(path, constants.F_OK).then(
    () => true,
    () => false,
  );
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function runInstallScript(): Promise<void> {
  const script = join(repoRoot, "scripts", "install-servers.sh");
  return new Promise((resolve, reject) => {
    // The script reports progress; send it to stderr so it never mixes with a reporter's stdout.
    const child = spawn("bash", [script], {
      cwd: repoRoot,
      // Absolute, so the script (run from the repo root) installs where serverBinDir() looks.
      env: { ...process.env, GATEWAY_CACHE_DIR: cacheDir() },
      stdio: ["ignore", 2, 2],
    });
    child.once("error", (err) =>
      reject(new Error(`could not run ${script}: ${err.message}`, { cause: err })),
    );
    child.once("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${script} failed (${signal ?? `exit code ${code}`}); see its output above`));
    });
  });
}
