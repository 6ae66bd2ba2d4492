/**
 * Bills of forked side requests (compaction summaries, ctx-agent runs, session-memory updates), collected as
 * they are answered and written as `side-request` records where the caller appends: the transcript then
 * holds every request the server billed, and totals count them.
 */
import type { SideRequestBill } from "../compaction/index.js";
import type { ModelLimits, SideRequestRecord } from "../messages/index.js";
import { addResponseUsage, modelLimits, type TurnUsage } from "../messages/index.js";

/** Collects bills; `drain` turns them into records. Pass `onSideRequest` as the fork parent's hook. */
export class SideRequestLog {
  #bills: SideRequestBill[] = [];

  readonly onSideRequest = (bill: SideRequestBill): void => {
    this.#bills.push(bill);
  };

  /** Records of the bills collected since the last drain, oldest first; each is also added to `totals`. */
  drain(sessionId: string, now: Date, totals?: TurnUsage, overrides?: Partial<ModelLimits>): SideRequestRecord[] {
    const bills = this.#bills;
    this.#bills = [];
    return bills.map((bill) => {
      if (totals !== undefined) {
        const limits = modelLimits(bill.model, overrides);
        addResponseUsage(totals, bill.usage, limits);
      }
      return {
        type: "side-request",
        purpose: bill.purpose,
        model: bill.model,
        usage: bill.usage,
        timestamp: now.toISOString(),
        sessionId,
      };
    });
  }
}
