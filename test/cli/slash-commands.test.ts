/** Slash commands a person mistypes or half-types: a suggestion, the list, the keys. */
import { describe, expect, it } from "vitest";
import { isSlashCommand, type ReplHost, runSlashCommand } from "../../src/cli/slash-commands.js";

/** A host that only prints (the commands tested here touch nothing else). */
function printingHost(): { host: ReplHost; printed: string[] } {
  const printed: string[] = [];
  const host = { print: (text: string) => void printed.push(text) } as unknown as ReplHost;
  return { host, printed };
}

describe("slash commands", () => {
  // Mutation caught: dropping the closestMatch call leaves "/cots" with only "Unknown command".
  it("a typo gets a did-you-mean naming the command", async () => {
    const { host, printed } = printingHost();
    expect(await runSlashCommand("/cots", host)).toBe("continue");
    expect(printed).toEqual(["Unknown command /cots. Did you mean /cost? (/help lists them all)"]);
  });

  it("a lone / lists the commands, and /help names Esc and the multi-line keys", async () => {
    expect(isSlashCommand("/")).toBe(true);
    const { host, printed } = printingHost();
    await runSlashCommand("/", host);
    expect(printed[0]).toContain("/compact");
    await runSlashCommand("/help", host);
    expect(printed[1]).toMatch(/Esc or Ctrl-C +interrupt the turn/);
    expect(printed[1]).toContain("Shift-Enter");
    expect(printed[1]).toContain("\\ then Enter");
  });
});
