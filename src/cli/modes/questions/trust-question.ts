/**
 * Interactive mode's question, once per folder: what the project's configuration would run, listed, and a
 * y/N. A yes is recorded in threadline's home (trust/trust-store.ts); anything else keeps it withheld, said
 * in one line (docs/TRUST.md).
 */
import { isYes, TRUST_PROMPT, type TrustGate, trustQuestionLines } from "../../../trust/index.js";

/** Whether the folder was trusted at the question (false: not asked, or not a yes). */
export async function askFolderTrust(
  gate: TrustGate | undefined,
  next: (prompt: string) => Promise<string | null>,
  print: (line: string, kind: "plain" | "dim" | "warning") => void,
): Promise<boolean> {
  if (gate === undefined || !gate.shouldAsk()) return false;
  for (const line of trustQuestionLines(gate.cwd, gate.withheld())) print(line, "plain");
  if (isYes(await next(TRUST_PROMPT))) {
    gate.trust();
    print(`Trusted ${gate.cwd}; its project configuration runs from now on.`, "dim");
    return true;
  }
  print(`! ${gate.withheldLine() ?? "project configuration withheld"}`, "warning");
  return false;
}
