/**
 * ExitPlanMode: the model presents its plan; the person accepts it (the session leaves plan mode for `default`)
 * or not (it stays in plan mode). Claude Code 2.1.328's name; its schema (deprecated `allowedPrompts`, other
 * fields allowed) plus `plan`, since threadline keeps no plan file (docs/TOOLS.md "Plan mode").
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";

export const exitPlanModeInputSchema = z.looseObject({
  allowedPrompts: z
    .array(z.strictObject({ tool: z.literal("Bash"), prompt: z.string() }))
    .optional()
    .describe("Deprecated: no longer used."),
  plan: z.string().optional().describe("The plan to present to the user (markdown)."),
});
export type ExitPlanModeInput = z.infer<typeof exitPlanModeInputSchema>;

const DESCRIPTION = `Use in plan mode when the plan is ready: presents the plan to the user for approval.
- Put the whole plan in plan (markdown). If the user accepts it, plan mode ends and the plan can be carried out.
- If the user does not accept it, stay in plan mode and revise the plan.`;

export const exitPlanModeTool: Tool<ExitPlanModeInput> = {
  name: "ExitPlanMode",
  description: DESCRIPTION,
  inputSchema: exitPlanModeInputSchema,
  // It changes no file and runs nothing; it must run in plan mode.
  isReadOnly: () => true,
  compactable: false,
  deferLoading: true,
  async call(input: ExitPlanModeInput, context: ToolContext): Promise<ToolOutput> {
    const control = context.runtime?.planMode;
    if (control === undefined || !control.inPlanMode())
      return { content: "The session is not in plan mode; nothing to exit. Go ahead with the work.", isError: true };
    const plan = input.plan?.trim() ?? "";
    if (plan === "") return { content: "ExitPlanMode needs the plan in plan; nothing was presented.", isError: true };
    const { accepted, feedback } = await control.present(plan);
    if (accepted)
      return {
        content: "The user approved the plan. Plan mode has ended: carry out the plan now.",
        display: { kind: "plan", plan, accepted: true },
      };
    return {
      content:
        feedback !== undefined && feedback !== ""
          ? `The user did not approve the plan; plan mode continues. What they want changed: ${feedback}`
          : "The user did not approve the plan (or no one can approve it in this session); plan mode continues. " +
            "Revise the plan or ask the user what to change.",
      isError: true,
      display: { kind: "plan", plan, accepted: false },
    };
  },
};
