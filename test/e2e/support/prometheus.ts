import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "@gateway/testkit";

/** Debian's prometheus package (.ci/run installs it). */
export const PROMETHEUS_BINARY = "/usr/bin/prometheus";

export interface LocalPrometheus {
  url: string;
  /** Instant PromQL query; the result vector as label sets with numeric values. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus on a free loopback port, scraping each target (job name → base URL of a
 * management listener) every second, with its TSDB in a temporary directory removed on stop.
 */
export async function startPrometheus(targets: Record<string, string>): Promise<LocalPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), "gateway-prometheus-"));
  const port = await freePort();
  const jobs = Object.entries(targets).map(
    ([job, url]) =>
      `  - job_name: ${JSON.stringify(job)}\n    static_configs:\n      - targets: [${JSON.stringify(new URL(url).host)}]`,
  );
  const config = join(dir, "prometheus.yml");
  await writeFile(
    config,
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n${jobs.join("\n")}\n`,
  );
  let output = "";
  const child: ChildProcess = spawn(
    PROMETHEUS_BINARY,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk) => (output += String(chunk)));
  child.stderr?.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${output}`);
        return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok || undefined;
      },
      { timeoutMs: 60_000, message: "prometheus did not become ready" },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data?: {
          resultType: string;
          result: Array<{ metric: Record<string, string>; value: [number, string] }>;
        };
      };
      if (body.status !== "success") throw new Error(`PromQL ${promql} failed: ${body.error}`);
      return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop,
  };
}
