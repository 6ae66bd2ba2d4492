import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addResponseUsage, emptyUsage, modelLimits, type Usage } from "../../src/messages/index.js";
import { requestCostUsd } from "../../src/messages/pricing.js";

const MODEL = "claude-sonnet-4-6";
const prices = () => {
  const limits = modelLimits(MODEL);
  return { inputPricePerMTok: limits.inputPricePerMTok, outputPricePerMTok: limits.outputPricePerMTok };
};

describe("the loop's running cost", () => {
  it("bills uncached 1x, 5-minute write 1.25x, 1-hour write 2x, read 0.1x of the input price, plus output", () => {
    const total = emptyUsage();
    const usage: Usage = {
      input_tokens: 1_000_000,
      output_tokens: 1_000_000,
      cache_read_input_tokens: 1_000_000,
      cache_creation_input_tokens: 2_000_000,
      cache_creation: { ephemeral_5m_input_tokens: 1_000_000, ephemeral_1h_input_tokens: 1_000_000 },
    };
    addResponseUsage(total, usage, prices());
    // Sonnet 4.6: $3 in, $15 out. 3 + 3.75 + 6 + 0.3 + 15.
    expect(total.costUsd).toBeCloseTo(28.05, 10);
  });

  it("is the same formula inspect prices a request with", () => {
    const count = fc.integer({ min: 0, max: 5_000_000 });
    fc.assert(
      fc.property(count, count, count, count, count, (input, output, read, write5m, write1h) => {
        const total = emptyUsage();
        addResponseUsage(
          total,
          {
            input_tokens: input,
            output_tokens: output,
            cache_read_input_tokens: read,
            cache_creation_input_tokens: write5m + write1h,
            cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
          },
          prices(),
        );
        const billed = requestCostUsd(MODEL, {
          inputTokens: input,
          outputTokens: output,
          cacheReadTokens: read,
          cacheWrite5mTokens: write5m,
          cacheWrite1hTokens: write1h,
        });
        expect(total.costUsd).toBe(billed);
      }),
    );
  });
});
