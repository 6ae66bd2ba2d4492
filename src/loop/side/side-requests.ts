/**
 * Bills of forked side requests (compaction summaries, ctx-agent runs, compaction-notes updates), collected as
 * they are answered and written as `side-request` records where the caller appends: the transcript then
 * holds every request the server billed, and totals count them. A side request the server refused or failed
 * is collected the same way and written as a `request-failed` record (docs/CONTEXT-BUDGET.md, "Refused requests").
 */
import type { SideRequestBill } from "../../compaction/index.js";
import type { ModelLimits, RequestFailedRecord, SideRequestRecord } from "../../messages/index.js";
import { addResponseUsage, modelLimits, type TurnUsage } from "../../messages/index.js";
import { type FailedRequest, failedRequestRecord } from "../recovery/failed-requests.js";

type Collected = { bill: SideRequestBill } | { failed: FailedRequest };

/**
 * Collects bills and failures; `drain` turns them into records. Pass `onSideRequest` and `onRequestFailed`
 * as the fork parent's hooks.
 */
export class SideRequestLog {
  #collected: Collected[] = [];

  readonly onSideRequest = (bill: SideRequestBill): void => {
    this.#collected.push({ bill });
  };

  readonly onRequestFailed = (failed: FailedRequest): void => {
    this.#collected.push({ failed });
  };

  /**
   * Records of what was collected since the last drain, oldest first; each bill is also added to `totals`
   * (a failed request bills nothing).
   */
  drain(
    sessionId: string,
    now: Date,
    totals?: TurnUsage,
    overrides?: Partial<ModelLimits>,
  ): Array<SideRequestRecord | RequestFailedRecord> {
    const collected = this.#collected;
    this.#collected = [];
    return collected.flatMap((item): Array<SideRequestRecord | RequestFailedRecord> => {
      if ("failed" in item) {
        const record = failedRequestRecord(item.failed, sessionId, now);
        return record === undefined ? [] : [record];
      }
      const { bill } = item;
      if (totals !== undefined) {
        const limits = modelLimits(bill.model, overrides);
        addResponseUsage(totals, bill.usage, limits);
      }
      return [
        {
          type: "side-request",
          purpose: bill.purpose,
          model: bill.model,
          usage: bill.usage,
          timestamp: now.toISOString(),
          sessionId,
        },
      ];
    });
  }
}
