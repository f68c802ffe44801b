#!/usr/bin/env node
// The `gateway` command (`npm run gateway -- …` in this repository, `npx gateway` once installed).
import { runCli } from "./main.js";

const controller = new AbortController();
// Ctrl-C ends `listen` and `trigger` cleanly; a second Ctrl-C is Node's default (exit at once).
process.once("SIGINT", () => controller.abort());
process.once("SIGTERM", () => controller.abort());

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("Paste your test key (sk_test_…): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (process.stdin.isTTY && chunk.includes(10)) break;
  }
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
  readStdin,
});
