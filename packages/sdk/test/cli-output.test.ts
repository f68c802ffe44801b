import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createOutput } from "../src/cli/output.js";

// Colours and progress are for people: only on a terminal, never with --json or NO_COLOR.
function stream(isTTY: boolean) {
  let text = "";
  const s = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        text += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { s, text: () => text };
}

function speak(tty: boolean, json: boolean, env: NodeJS.ProcessEnv = {}) {
  const stdout = stream(tty);
  const stderr = stream(tty);
  const out = createOutput(json, { stdout: stdout.s, stderr: stderr.s }, env);
  out.progress("Paying…");
  out.result({ ok: true }, () => out.colour.green("done"));
  return { stdout: stdout.text(), stderr: stderr.text() };
}

describe("CLI output", () => {
  it("on a terminal, then colours the result and shows progress on stderr", () => {
    expect(speak(true, false)).toEqual({ stdout: "\u001b[32mdone\u001b[0m\n", stderr: "Paying…\n" });
  });

  it("off a terminal, then plain text and no progress", () => {
    expect(speak(false, false)).toEqual({ stdout: "done\n", stderr: "" });
  });

  it("with NO_COLOR on a terminal, then progress but no colour", () => {
    expect(speak(true, false, { NO_COLOR: "1" })).toEqual({ stdout: "done\n", stderr: "Paying…\n" });
  });

  it("with --json, then only the JSON document, even on a terminal", () => {
    expect(speak(true, true)).toEqual({ stdout: '{\n  "ok": true\n}\n', stderr: "" });
  });
});
