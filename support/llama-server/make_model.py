# Builds a tiny llama-architecture GGUF for the real-server tests (support/llama-server.ts).
#   make_model.py OUT COMMAND
# The model's transformer blocks add nothing (their output projections are zero), so each next token depends only
# on the one before: a bigram table. The output rows are set so that greedy decoding after the chat template's
# "assistant\n" always walks one chain: "<tool_call>" -> the Bash call of COMMAND -> "</tool_call>" -> <|im_end|>.
# So the model calls Bash(COMMAND) on every turn and can never write anything else, a summary included.
# The vocabulary is byte-fallback SentencePiece (every byte its own token), so the server counts about one token
# per character: ~4x the characters/4 estimate a client makes.
import json
import sys

import gguf
import numpy as np

out, command = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)

tokens, scores, types = [], [], []


def add(text, score, kind):
    tokens.append(text)
    scores.append(score)
    types.append(kind)
    return len(tokens) - 1


add("<unk>", 0.0, gguf.TokenType.UNKNOWN)
add("<s>", 0.0, gguf.TokenType.CONTROL)
add("</s>", 0.0, gguf.TokenType.CONTROL)
byte_id = {}
for b in range(256):
    byte_id[b] = add(f"<0x{b:02X}>", 0.0, gguf.TokenType.BYTE)
add("\u2581", -1.0, gguf.TokenType.NORMAL)
for c in range(0x21, 0x7F):
    add(chr(c), -1.0, gguf.TokenType.NORMAL)
im_start = add("<|im_start|>", 0.0, gguf.TokenType.CONTROL)
im_end = add("<|im_end|>", 0.0, gguf.TokenType.CONTROL)
open_call = add("<tool_call>", 0.0, gguf.TokenType.USER_DEFINED)
call = json.dumps({"name": "Bash", "arguments": {"command": command}}, separators=(",", ":"))
body = add("\n" + call + "\n", 0.0, gguf.TokenType.USER_DEFINED)
close_call = add("</tool_call>", 0.0, gguf.TokenType.USER_DEFINED)

# A Hermes/ChatML template with tools: what llama-server renders both its Anthropic and its OpenAI endpoint with.
template = (
    "{%- if tools %}<|im_start|>system\n{% if messages[0].role == 'system' %}{{ messages[0].content }}\n{% endif %}"
    "# Tools\n<tools>\n{% for t in tools %}{{ t | tojson }}\n{% endfor %}</tools>\n"
    "Call a tool with <tool_call>{\"name\": <name>, \"arguments\": <args>}</tool_call><|im_end|>\n"
    "{%- elif messages[0].role == 'system' %}<|im_start|>system\n{{ messages[0].content }}<|im_end|>\n{%- endif %}"
    "{%- for m in messages %}{%- if m.role == 'system' and loop.first %}"
    "{%- elif m.role == 'tool' %}<|im_start|>user\n<tool_response>\n{{ m.content }}\n</tool_response><|im_end|>\n"
    "{%- elif m.role == 'assistant' %}<|im_start|>assistant\n{{ m.content }}{%- if m.tool_calls %}"
    "{% for tc in m.tool_calls %}<tool_call>\n{\"name\": \"{{ tc.function.name }}\", \"arguments\": "
    "{{ tc.function.arguments | tojson }}}\n</tool_call>{% endfor %}{% endif %}<|im_end|>\n"
    "{%- else %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

n_vocab, n_embd, n_head, n_layer, n_ff, n_ctx = len(tokens), 64, 4, 2, 128, 65536
w = gguf.GGUFWriter(out, "llama")
w.add_name("threadline-test-toolcaller")
w.add_context_length(n_ctx)
w.add_embedding_length(n_embd)
w.add_block_count(n_layer)
w.add_feed_forward_length(n_ff)
w.add_head_count(n_head)
w.add_head_count_kv(n_head)
w.add_rope_dimension_count(n_embd // n_head)
w.add_layer_norm_rms_eps(1e-5)
w.add_file_type(gguf.LlamaFileType.ALL_F32)
w.add_tokenizer_model("llama")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(types)
w.add_bos_token_id(1)
w.add_eos_token_id(im_end)
w.add_unk_token_id(0)
w.add_add_bos_token(False)
w.add_chat_template(template)

embeddings = rng.standard_normal((n_vocab, n_embd)).astype(np.float32)


def unit(v):
    return v / np.sqrt((v * v).mean() + 1e-5)


# Row b of the output matrix aligned with the (normalised) embedding of a makes b the argmax after a.
output = np.zeros((n_vocab, n_embd), np.float32)
newline = byte_id[0x0A]
for before, after in [(newline, open_call), (open_call, body), (body, close_call), (close_call, im_end)]:
    output[after] += 10 * unit(embeddings[before])
w.add_tensor("token_embd.weight", embeddings)
w.add_tensor("output_norm.weight", np.ones(n_embd, np.float32))
w.add_tensor("output.weight", output)
zeros = lambda *shape: np.zeros(shape, np.float32)  # noqa: E731
for i in range(n_layer):
    p = f"blk.{i}."
    w.add_tensor(p + "attn_norm.weight", np.ones(n_embd, np.float32))
    w.add_tensor(p + "ffn_norm.weight", np.ones(n_embd, np.float32))
    for name in ("attn_q", "attn_k", "attn_v"):
        w.add_tensor(p + name + ".weight", (rng.standard_normal((n_embd, n_embd)) * 0.05).astype(np.float32))
    w.add_tensor(p + "attn_output.weight", zeros(n_embd, n_embd))
    w.add_tensor(p + "ffn_gate.weight", zeros(n_ff, n_embd))
    w.add_tensor(p + "ffn_up.weight", zeros(n_ff, n_embd))
    w.add_tensor(p + "ffn_down.weight", zeros(n_embd, n_ff))
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(out, n_vocab, "tokens; calls Bash", command)
