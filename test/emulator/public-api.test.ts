/**
 * The emulator answers like today's API: newer request fields accepted with their shapes checked, full
 * response shapes, paged model lists, thinking display "omitted", ids that differ per run, chat-like answers
 * to a generic "hi", and clear_tool_uses whose cleared set moves with every request.
 */
import Anthropic from "@anthropic-ai/sdk";
import {
  applyContextManagement,
  DEFAULT_SEED,
  type Emulator,
  type EmulatorRequest,
  startEmulator,
  validateRequest,
} from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { body, MODEL, post, READ_TOOL } from "./helpers.js";

const running: Emulator[] = [];
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});
async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

describe("request fields of today's API", () => {
  it("accepts output_config, top-level cache_control, inference_geo, service_tier, speed and tool extras", () => {
    // A model that declares effort levels (GET /v1/models); the model the helpers default to declares none.
    const request = body({
      model: "claude-opus-4-5",
      output_config: { effort: "high", format: { type: "json_schema", schema: { type: "object" } } },
      cache_control: { type: "ephemeral" },
      inference_geo: "us",
      service_tier: "auto",
      speed: "fast",
      tools: [{ ...READ_TOOL, strict: true, defer_loading: true, eager_input_streaming: true, input_examples: [{}] }],
    });
    expect(validateRequest(request)).toEqual([]);
    const { max_tokens: _omitted, inference_geo: _geo, service_tier: _tier, ...count } = request;
    expect(validateRequest(count, { endpoint: "count_tokens" })).toEqual([]);
  });

  it("checks the new fields' shapes with the API's wording", () => {
    const first = (payload: unknown) => validateRequest(payload)[0]?.message;
    expect(first(body({ output_config: { effort: "extreme" } }))).toMatch(/^output_config.effort: Input should be/);
    expect(first(body({ output_config: { verbosity: 1 } }))).toBe(
      "output_config.verbosity: Extra inputs are not permitted",
    );
    expect(first(body({ service_tier: "priority" }))).toBe("service_tier: Input should be 'auto' or 'standard_only'");
    expect(first(body({ cache_control: { type: "persistent" } }))).toBe(
      "cache_control.type: Input should be 'ephemeral'",
    );
    expect(first(body({ tools: [{ ...READ_TOOL, colour: "red" }] }))).toBe(
      "tools.0.custom.colour: Extra inputs are not permitted",
    );
    // A top-level marker counts toward the four, after every explicit one.
    const marker = { type: "ephemeral" } as const;
    const four = body({
      cache_control: marker,
      system: [1, 2, 3, 4].map((index) => ({ type: "text", text: `s${index}`, cache_control: marker })),
    });
    expect(first(four)).toMatch(/A maximum of 4 blocks with cache_control may be provided. Found 5/);
  });

  it("beta-only fields need a beta header (when the emulator checks betas)", () => {
    const request = body({ mcp_servers: [] });
    expect(validateRequest(request, { betas: [] })[0]?.message).toBe("mcp_servers: Extra inputs are not permitted");
    expect(validateRequest(request, { betas: ["mcp-client-2025-04-04"] })).toEqual([]);
  });

  it("max_tokens: the table's limit for a known model; the largest any model allows for an unknown one", () => {
    expect(validateRequest(body({ model: "claude-opus-5-5", max_tokens: 64_000 }))).toEqual([]);
    expect(validateRequest(body({ model: MODEL, max_tokens: 10_000_000 }))[0]?.message).toMatch(
      /^max_tokens: 10000000 > \d+, which is the maximum allowed number of output tokens/,
    );
    expect(validateRequest(body({ model: "claude-opus-5-5", max_tokens: 10_000_000 })).length).toBe(1);
  });

  it("cache_reference is an extra input on the public API, named with its path", async () => {
    const emulator = await start();
    const reply = await post(
      emulator,
      "/v1/messages",
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: {} }] },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x", cache_reference: "r" }],
          },
        ],
        tools: [READ_TOOL],
      }),
    );
    expect(reply.status).toBe(400);
    expect((reply.json.error as { message: string }).message).toBe(
      "messages.2.content.0.cache_reference: Extra inputs are not permitted",
    );
  });
});

describe("responses in full shapes", () => {
  it("carries every field the SDK's Message type lists, through the SDK itself", async () => {
    const emulator = await start({ seed: DEFAULT_SEED });
    const client = new Anthropic({ apiKey: "k", baseURL: emulator.url, maxRetries: 0 });
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message).toMatchObject({ container: null, stop_details: null, stop_reason: "end_turn" });
    expect(message.usage).toMatchObject({ service_tier: "standard", server_tool_use: null, inference_geo: null });
    // A generic client's "hi" without tools gets a chat-like answer, not a summary.
    expect(message.content).toEqual([{ type: "text", text: "Echo: hi" }]);
    const streamed = await client.messages
      .stream({ model: MODEL, max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(streamed.usage.service_tier).toBe("standard");
    expect(streamed.stop_details).toBeNull();
  });

  it("ids differ per run unless a seed is given", async () => {
    const firstIds = async (seed?: number) => {
      const emulator = await start(seed === undefined ? {} : { seed });
      const reply = await post(emulator, "/v1/messages", body());
      return String(reply.json.id);
    };
    expect(await firstIds(DEFAULT_SEED)).toBe(await firstIds(DEFAULT_SEED));
    const a = await firstIds();
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(a).not.toBe(await firstIds());
  });

  it('thinking display "omitted" returns empty thinking whose signature round-trips', async () => {
    const emulator = await start({
      scenario: [
        {
          content: [
            { type: "thinking", thinking: "secret plan" },
            { type: "text", text: "Done." },
          ],
        },
      ],
    });
    const thinking = { type: "enabled", budget_tokens: 1024, display: "omitted" };
    const first = await post(emulator, "/v1/messages", body({ max_tokens: 2000, thinking, tools: [READ_TOOL] }));
    const content = first.json.content as Array<Record<string, unknown>>;
    expect(content[0]).toMatchObject({ type: "thinking", thinking: "" });
    expect(String(content[0]?.signature).length).toBeGreaterThan(0);
    const second = await post(
      emulator,
      "/v1/messages",
      body({
        max_tokens: 2000,
        thinking,
        tools: [READ_TOOL],
        messages: [
          { role: "user", content: "Hello" },
          { role: "assistant", content },
          { role: "user", content: "and?" },
        ],
      }),
    );
    expect(second.status).toBe(200);
  });
});

describe("GET /v1/models", () => {
  const list = async (emulator: Emulator, query: string) => {
    const response = await fetch(`${emulator.url}/v1/models${query}`, {
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it("pages with limit, after_id and before_id, and describes models as ModelInfo", async () => {
    const emulator = await start();
    const all = (await list(emulator, "?limit=1000")).json;
    const ids = (all.data as Array<{ id: string }>).map((model) => model.id);
    expect(all.has_more).toBe(false);
    expect(ids.length).toBeGreaterThan(3);
    expect((all.data as unknown[])[0]).toMatchObject({ type: "model", lifecycle: "active", deprecated_at: null });
    const page = (await list(emulator, "?limit=2")).json;
    expect(page).toMatchObject({ has_more: true, first_id: ids[0], last_id: ids[1] });
    const next = (await list(emulator, `?limit=2&after_id=${ids[1]}`)).json;
    expect((next.data as Array<{ id: string }>).map((model) => model.id)).toEqual(ids.slice(2, 4));
    const before = (await list(emulator, `?limit=2&before_id=${ids[3]}`)).json;
    expect((before.data as Array<{ id: string }>).map((model) => model.id)).toEqual(ids.slice(1, 3));
    expect(before.has_more).toBe(true);
    expect((await list(emulator, "?limit=0")).status).toBe(400);
  });
});

describe("clear_tool_uses_20250919", () => {
  const conversation = (uses: number): EmulatorRequest => {
    const messages: EmulatorRequest["messages"] = [{ role: "user", content: "start" }];
    for (let index = 0; index < uses; index++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id: `toolu_${index}`, name: "Read", input: {} }],
      });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `toolu_${index}`, content: "x".repeat(4000) }],
      });
    }
    return {
      model: MODEL,
      max_tokens: 100,
      messages,
      context_management: {
        edits: [
          {
            type: "clear_tool_uses_20250919",
            trigger: { type: "tool_uses", value: 3 },
            keep: { type: "tool_uses", value: 2 },
          },
        ],
      },
    };
  };
  const clearedIds = (request: EmulatorRequest): string[] =>
    applyContextManagement(request).request.messages.flatMap((message) =>
      typeof message.content === "string"
        ? []
        : message.content.flatMap((block) =>
            block.type === "tool_result" && typeof block.content === "string" && block.content.startsWith("[cleared")
              ? [block.tool_use_id]
              : [],
          ),
    );

  it("clears all but the last `keep` once over the trigger, and the cleared set moves with each new tool use", () => {
    expect(clearedIds(conversation(3))).toEqual([]);
    expect(clearedIds(conversation(4))).toEqual(["toolu_0", "toolu_1"]);
    expect(clearedIds(conversation(5))).toEqual(["toolu_0", "toolu_1", "toolu_2"]);
  });

  it("skips a clear smaller than clear_at_least and spares excluded tools", () => {
    const request = conversation(5);
    const edit = request.context_management!.edits[0]!;
    const big = {
      ...request,
      context_management: { edits: [{ ...edit, clear_at_least: { type: "input_tokens", value: 1_000_000 } }] },
    };
    expect(clearedIds(big as EmulatorRequest)).toEqual([]);
    const spared = { ...request, context_management: { edits: [{ ...edit, exclude_tools: ["Read"] }] } };
    expect(clearedIds(spared as EmulatorRequest)).toEqual([]);
  });
});
