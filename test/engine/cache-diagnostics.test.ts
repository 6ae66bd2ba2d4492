/**
 * Cache diagnostics over HTTP on the emulator: sent only where declared, read back into break detection.
 *
 * Mutations this catches (each applied once while writing it):
 * - sending `diagnostics` whatever the capability says fails "not declared, never sent";
 * - naming the first response's id on every turn (instead of the latest) fails "names the latest response";
 * - dropping the server reason in stage-stream (`afterResponse(usage)`) fails "a server-reported miss is named";
 * - letting the server's `messages_changed` override an expected drop (break-detector) fails "an expected break
 *   stays silent" — which shows the emulator did report messages_changed after the idle clear.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cacheBreakNotices } from "../../support/cache-break-notices.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const breaks = cacheBreakNotices;

const DECLARED = { capabilities: { cacheDiagnostics: true } };
const warmTurns = () => [...readEachFileScenario(sourceFileNames(2)), "Second turn done.", "Third turn done."];

/** `diagnostics` of each logged /v1/messages body, and the id each response carried, in order. */
function diagnosticsSent(h: Harness): { sent: unknown[]; responseIds: string[] } {
  const posts = h.emulator.requests.filter((entry) => entry.path === "/v1/messages" && entry.status === 200);
  return {
    sent: posts.map((entry) => (entry.body as Record<string, unknown>).diagnostics),
    responseIds: h.engine.timeline.entries.flatMap((entry) => (entry.type === "assistant" ? [entry.message.id] : [])),
  };
}

describe("cache diagnostics, where the server declares them", () => {
  it("names the latest response on each request (null on the first)", async () => {
    harness = await startHarness({ scenario: warmTurns() }, { model: MODEL }, DECLARED);
    await writeSourceFiles(harness.workspace, 2);
    expect(turnEnd(await collect(harness.engine.submitMessage("Read both modules."))).reason).toBe("completed");
    expect(turnEnd(await collect(harness.engine.submitMessage("And now?"))).reason).toBe("completed");
    const { sent, responseIds } = diagnosticsSent(harness);
    const distinct = [...new Set(responseIds)];
    expect(sent.length).toBe(distinct.length);
    // Oracle: request N names response N-1, recomputed from the timeline's own response ids.
    expect(sent).toEqual([null, ...distinct.slice(0, -1)].map((id) => ({ previous_message_id: id })));
  });

  it("a server-reported miss is named with its reason; an unchanged turn stays silent", async () => {
    harness = await startHarness({ scenario: warmTurns() }, { model: MODEL }, DECLARED);
    await writeSourceFiles(harness.workspace, 2);
    const first = await collect(harness.engine.submitMessage("Read both modules."));
    const second = await collect(harness.engine.submitMessage("And now?"));
    expect(breaks([...first, ...second])).toEqual([]);
    harness.engine.config.systemPrompt = [...harness.engine.config.systemPrompt, "Always answer in French."];
    const [found] = breaks(await collect(harness.engine.submitMessage("Encore?")));
    expect(found?.kind).toBe("client_change");
    expect(found?.causes[0]).toMatch(/^server says: system prompt changed \(~[\d,]+ tokens missed\)$/);
    // The emulator said so in its response, not only the client's own fingerprint.
    const last = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages").at(-1);
    expect((last!.body as Record<string, unknown>).diagnostics).toEqual({
      previous_message_id: expect.stringMatching(/^msg_/),
    });
  });

  it("an expected break stays silent although the server reports messages_changed (idle microcompact)", async () => {
    let now = Date.parse("2026-11-29T10:00:00Z");
    harness = await startHarness(
      { scenario: [...readEachFileScenario(sourceFileNames(10)), "Back again."], now: () => now },
      { model: MODEL, now: () => new Date(now), compaction: { cacheEdits: "off" } },
      DECLARED,
    );
    await writeSourceFiles(harness.workspace, 10, 4_000);
    expect(turnEnd(await collect(harness.engine.submitMessage("Read the modules."))).reason).toBe("completed");
    now += 61 * 60_000;
    const events = await collect(harness.engine.submitMessage("Anything else?"));
    // The clear happened (the server saw changed messages) and no break was reported for it.
    expect(
      harness.engine.timeline.entries.some(
        (entry) => entry.type === "system" && entry.subtype === "microcompact_boundary",
      ),
    ).toBe(true);
    const sentAfterIdle = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages").at(-1);
    expect((sentAfterIdle!.body as Record<string, unknown>).diagnostics).toBeDefined();
    expect(breaks(events)).toEqual([]);
  });

  it("not declared, never sent (the default profile sends no diagnostics field)", async () => {
    harness = await startHarness({ scenario: warmTurns() }, { model: MODEL });
    await writeSourceFiles(harness.workspace, 2);
    await collect(harness.engine.submitMessage("Read both modules."));
    const { sent } = diagnosticsSent(harness);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.every((value) => value === undefined)).toBe(true);
  });
});
