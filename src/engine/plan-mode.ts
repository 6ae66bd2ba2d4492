/**
 * Leaving plan mode (ExitPlanMode): the person is asked through the session's `ask`; on yes the session's policy
 * switches to `default`, so the calls after it are checked as usual — unless the asker already chose another mode
 * (the terminal's "yes, auto-accept edits"). A no with a reason carries the reason back to the model. Without a
 * way to ask (print mode) the session stays in plan mode (docs/TOOLS.md "Plan mode").
 */
import type { PermissionPolicy, PlanModeControl } from "../tools/index.js";

export function planModeControl(policy: PermissionPolicy): PlanModeControl {
  return {
    inPlanMode: () => policy.mode === "plan",
    async present(plan) {
      if (policy.ask === undefined) return { accepted: false };
      const reply = await policy.ask({ tool: "ExitPlanMode", input: { plan }, summary: `ExitPlanMode(${plan})` });
      if (reply !== true) return { accepted: false, ...(reply === false ? {} : { feedback: reply.reason }) };
      if (policy.mode === "plan") policy.mode = "default";
      return { accepted: true };
    },
  };
}
