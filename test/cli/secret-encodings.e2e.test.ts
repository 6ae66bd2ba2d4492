/**
 * No encoded form of a secret reaches a request with the sandbox on. Redaction only catches a secret's literal
 * value, so the guarantee rests on the tool process never holding the secret at all: its environment is
 * scrubbed, and the sandbox's private /proc hides threadline's own /proc/PID/environ. A scripted model looks
 * for the key everywhere a Bash command can (its environment, every /proc/N/environ it can see) and prints it
 * encoded: base64 at three alignments, hex, reversed. The oracle is the encodings recomputed here from the
 * secret, searched for in every request body the emulator logged.
 *
 * Without the sandbox a command naming /proc/…/environ is refused by its text (process-environ.ts); one that
 * assembles the path at run time still reaches the key (through /proc/$PPID/environ) and its base64 form
 * reaches the request: docs/TRUST.md says so, and the control case below pins it, which also shows the oracle
 * can see a leak.
 *
 * Mutations it catches (scripts/mutation-check.mjs): `proc-environ-not-screened` (the text screen is skipped) and
 * `sandbox-shares-proc` (the sandbox mounts the host's
 * /proc instead of its own, so /proc/$PPID/environ is threadline's).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/tools/shell/sandbox.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const harness = useCliHarness();

/** Finds ANTHROPIC_API_KEY wherever a command can and prints it in every encoding the oracle knows. */
const DIG_AND_ENCODE = [
  // The parent's environ first: other processes on the machine may hold keys of their own.
  "S=$( (printenv; for f in /proc/$PPID/environ /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\"; done) 2>/dev/null | sed -n 's/^ANTHROPIC_API_KEY=//p' | head -n 1)",
  'printf %s "$S" | base64 -w0; echo',
  "printf 'x%s' \"$S\" | base64 -w0; echo",
  "printf 'xy%s' \"$S\" | base64 -w0; echo",
  "printf %s \"$S\" | od -An -tx1 | tr -d ' \\n'; echo",
  'printf %s "$S" | rev; echo',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  'echo "found ${#S} characters"',
].join("; ");

/**
 * Substrings every encoding of `secret` contains, whatever surrounds it: base64 at each of the three byte
 * alignments (the 4-character groups that hold only secret bytes), hex in both cases, reversed, and plain.
 */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = [secret, [...secret].reverse().join(""), bytes.toString("hex"), bytes.toString("hex").toUpperCase()];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset, 0x78), bytes]).toString("base64");
    // Drop the group that holds the prefix bytes and the last group (it may hold bytes of what follows).
    const start = offset === 0 ? 0 : 4;
    const end = Math.floor((offset + bytes.length) / 3) * 4;
    forms.push(encoded.slice(start, end));
  }
  return forms.filter((form) => form.length >= 8);
}

/**
 * The same search with the path assembled at run time, which the command-text screen (process-environ.ts)
 * cannot see: the part that stays open without the sandbox.
 */
const DIG_ASSEMBLED =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates
  "P=/pr; P=${P}oc; E=envi; E=${E}ron; " + DIG_AND_ENCODE.replaceAll("/proc/", "$P/").replaceAll("/environ", "/$E");

async function digFor(secret: string, sandbox: boolean, command = DIG_AND_ENCODE) {
  const emulator = await harness.startEmulator({
    scenario: [{ content: [{ type: "tool_use", name: "Bash", input: { command } }] }, "Done."] as never,
  });
  const base = await harness.tempDir("threadline-encodings-");
  const home = join(base, "home");
  const cwd = join(base, "project");
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const env = cliEnv(emulator.url, home, { ANTHROPIC_API_KEY: secret, HOME: home });
  const result = await runCli(
    ["-p", "find the key", "--permission-mode", "bypassPermissions", sandbox ? "--sandbox" : "--no-sandbox"],
    { cwd, env },
  );
  expect(result.code).toBe(0);
  const bodies = JSON.stringify(emulator.requests.map((request) => request.body));
  return { bodies, found: encodedForms(secret).filter((form) => bodies.includes(form)) };
}

/** Secrets of the shapes keys have (not `sk-ant-…`, which a pattern redacts whatever the value). */
const secrets = fc.stringMatching(/^[A-Za-z0-9_-]{16,48}$/).filter((secret) => !secret.startsWith("sk-ant-"));

const probe = probeSandbox();
if (!probe.available) console.warn(`[skip] sandboxed secret-encoding property: ${probe.reason}`);

describe.skipIf(!probe.available)("encoded secrets and the sandbox", () => {
  it("no encoded form of the key reaches any request with the sandbox on", async () => {
    await fc.assert(
      fc.asyncProperty(secrets, async (secret) => {
        const { bodies, found } = await digFor(secret, true);
        expect(found).toEqual([]);
        // The command ran, its output came back and it found nothing: the tool process never held the key.
        // Booleans, not toContain: a failure must not print every request body.
        expect(bodies.includes("found 0 characters")).toBe(true);
      }),
      { numRuns: 6 },
    );
  }, 120_000);

  it("without the sandbox, a command naming /proc/…/environ is refused before it runs", async () => {
    const secret = "Zq7-refused-secret-value_0123";
    const { bodies, found } = await digFor(secret, false);
    expect(found).toEqual([]);
    // The command's own text is in the request (the tool call); its output is not.
    expect(bodies.includes(`found ${secret.length} characters`)).toBe(false);
    expect(bodies.includes("found 0 characters")).toBe(false);
    expect(bodies.includes("Bash refused: the command reads a process's environment under /proc")).toBe(true);
  });

  it("control, without the sandbox (the exposure docs/TRUST.md states): a path assembled at run time gets the key", async () => {
    const secret = "Zq7-control-secret-value_0123";
    const { bodies, found } = await digFor(secret, false, DIG_ASSEMBLED);
    expect(bodies.includes(`found ${secret.length} characters`)).toBe(true);
    // The literal is redacted from the tool result; the encodings are not.
    expect(found).not.toContain(secret);
    expect(found.length).toBeGreaterThan(0);
  });
});
