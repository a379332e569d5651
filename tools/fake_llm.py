#!/usr/bin/env python3
"""A fake OpenAI-compatible chat endpoint with a scripted model, to test and measure
`agents/llm_agent.py` without a real model (standard library only).

`POST /v1/chat/completions` answers from a script instead of a model, with `usage` counted on
the request it got: prompt tokens are the messages' text (contents, tool calls' names and
arguments, 4 tokens a message) plus the compact JSON of `tools`; completion tokens are the
answer's text. They are counted with tiktoken's `o200k_base` when tiktoken and its BPE file are
at hand, else as characters / 4 (rounded up); `TOKENIZER` says which.

The script (`scripted_model`) plays one fixed game, whatever the colony answers:

- turn 1: `colony_overview`; `build` a water pump; `build` a small tank and a gatherer flag by
  the summary's first food cluster (two calls in one answer); `build` a home; `write_notes` and
  `log_message` in one answer; `advance` (in an evaluation: "end my turn");
- turn 2: `colony_overview`, then a call whose arguments are not JSON, then a closing message;
- every later turn: `colony_overview`, then a closing message.

Run it alone and point the agent at it (docs/llm.md measures a 60-day episode this way):

    python3 tools/fake_llm.py --port 8199 --log /tmp/fake-llm.jsonl
    OPENAI_BASE_URL=http://127.0.0.1:8199/v1 colony eval ... --agent '... llm_agent.py ...'

`--log` writes one JSON line per request: turn, step, promptTokens, completionTokens, and the
parts of the prompt (systemTokens, userTokens, toolsTokens, toolsChars, restTokens); `--report
LOG` sums such a file per turn. `--count` counts the characters and tokens of its stdin.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import signal
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Message = dict[str, Any]
Script = Callable[[dict[str, Any]], Message]


def _tokenizer() -> tuple[str, Callable[[str], int]]:
    try:
        import tiktoken

        enc = tiktoken.get_encoding("o200k_base")
        enc.encode("probe")
    except Exception:  # not installed, or its BPE file cannot be had: count characters
        return "chars/4", lambda text: math.ceil(len(text) / 4)
    return (
        f"tiktoken {tiktoken.__version__} o200k_base",
        lambda text: len(enc.encode(text, disallowed_special=())),
    )


TOKENIZER, count_tokens = _tokenizer()


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def message_tokens(m: Message) -> int:
    """A message's tokens: its text, its tool calls' names and arguments, and 4 for the frame."""
    n = 4
    if isinstance(m.get("content"), str):
        n += count_tokens(m["content"])
    for call in m.get("tool_calls") or []:
        fn = call.get("function", {})
        n += count_tokens(str(fn.get("name", ""))) + count_tokens(str(fn.get("arguments", "")))
    return n


def prompt_parts(body: dict[str, Any]) -> dict[str, int]:
    """The request's prompt tokens, by part."""
    messages = body.get("messages") or []
    system = sum(message_tokens(m) for m in messages if m.get("role") == "system")
    first_user = next((m for m in messages if m.get("role") == "user"), None)
    user = message_tokens(first_user) if first_user else 0
    rest = sum(message_tokens(m) for m in messages) - system - user
    tools_json = compact(body["tools"]) if body.get("tools") else ""
    tools = count_tokens(tools_json) if tools_json else 0
    return {
        "promptTokens": 3 + system + user + rest + tools,
        "systemTokens": system,
        "userTokens": user,
        "restTokens": rest,
        "toolsTokens": tools,
        "toolsChars": len(tools_json),
    }


def turn_of(body: dict[str, Any]) -> tuple[int, int, str, str]:
    """(turn, step, faction, prompt) of a request: the turn from the prompt's `Turn N of M`,
    the step from the assistant answers so far, the faction from the summary's `faction:`."""
    messages = body.get("messages") or []
    user = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
    turn = re.search(r"Turn (\d+) of", user)
    faction = re.search(r"faction: (\w+)", user)
    step = sum(1 for m in messages if m.get("role") == "assistant")
    return (
        int(turn.group(1)) if turn else 1,
        step,
        faction.group(1) if faction else "Folktails",
        user,
    )


def call(name: str, arguments: Any, ident: str) -> dict[str, Any]:
    text = arguments if isinstance(arguments, str) else compact(arguments)
    return {"id": ident, "type": "function", "function": {"name": name, "arguments": text}}


def scripted_model(body: dict[str, Any]) -> Message:
    """The fake model's answer to a request (see the module's docstring)."""
    turn, step, faction, prompt = turn_of(body)
    ident = f"call_{turn}_{step}"
    iron = faction == "IronTeeth"
    pump = "DeepWaterPump.IronTeeth" if iron else f"WaterPump.{faction}"
    home = "Rowhouse.IronTeeth" if iron else f"Lodge.{faction}"
    flag: dict[str, Any] = {"prefab": f"GathererFlag.{faction}"}
    food = re.search(r'foodClusters: "?(\d+),(\d+),', prompt)  # the summary's nearest bushes
    if food:
        flag.update(x=int(food.group(1)), y=int(food.group(2)))
    first = [
        [call("colony_overview", {}, ident)],
        [call("build", {"prefab": pump}, ident)],
        [
            call("build", {"prefab": f"SmallTank.{faction}"}, ident),
            call("build", flag, ident + "b"),
        ],
        [call("build", {"prefab": home}, ident)],
        [
            call("write_notes", {"text": f"Turn 1: a {pump}, a tank, a flag, a home."}, ident),
            call("log_message", {"message": "water, food and a home first"}, ident + "b"),
        ],
        [call("advance", {}, ident)],
    ]
    if turn == 1 and step < len(first):
        return {"role": "assistant", "content": None, "tool_calls": first[step]}
    if step == 0:
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [call("colony_overview", {}, ident)],
        }
    if turn == 2 and step == 1:
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [call("map", "{not json", ident)],
        }
    return {"role": "assistant", "content": f"Turn {turn}: the colony holds; nothing to add."}


class FakeEndpoint:
    """The endpoint on a free loopback port, in a thread: `url` is the OPENAI_BASE_URL to give;
    `requests` the bodies received; `totals` the usage answered; `fail` statuses to answer (once
    each, in order) before the script is asked again."""

    def __init__(self, script: Script = scripted_model, port: int = 0, log: Path | None = None):
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.totals = {"prompt": 0, "completion": 0, "calls": 0}
        self.fail: list[int] = []
        self.log = log.open("a", encoding="utf-8") if log else None
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        if self.log:
            self.log.close()

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append(body)
            if self.fail:
                status = self.fail.pop(0)
                return status, {"error": {"message": f"scripted failure {status}"}}
        message = self.script(body)
        parts = prompt_parts(body)
        said = message.get("content") or ""
        completion = (count_tokens(said) if said else 0) + sum(
            count_tokens(c["function"]["name"]) + count_tokens(c["function"]["arguments"])
            for c in message.get("tool_calls") or []
        )
        usage = {
            "prompt_tokens": parts["promptTokens"],
            "completion_tokens": completion,
            "total_tokens": parts["promptTokens"] + completion,
        }
        with self.lock:
            self.totals["prompt"] += usage["prompt_tokens"]
            self.totals["completion"] += completion
            self.totals["calls"] += 1
            if self.log:
                turn, step, _, _ = turn_of(body)
                line = {"turn": turn, "step": step, **parts, "completionTokens": completion}
                self.log.write(json.dumps(line) + "\n")
                self.log.flush()
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return 200, {
            "id": f"chatcmpl-{self.totals['calls']}",
            "object": "chat.completion",
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                size = int(self.headers.get("Content-Length") or 0)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self.reply(404, {"error": {"message": f"no route {self.path}"}})
                    return
                try:
                    body = json.loads(self.rfile.read(size))
                except ValueError:
                    self.reply(400, {"error": {"message": "the body is not JSON"}})
                    return
                self.reply(*endpoint.answer(body))

            def reply(self, status: int, obj: dict[str, Any]) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        return Handler


def report(log: Path) -> str:
    """A `--log` file per turn: model calls, prompt and completion tokens, and the first call's
    parts (system prompt, tools, the turn's prompt with the agent's memory); then the totals."""
    rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    turns: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        turns.setdefault(r["turn"], []).append(r)
    out = [f"tokens: {TOKENIZER}", "turn calls prompt completion | first call: system tools turn"]
    for t, rs in sorted(turns.items()):
        p, c = sum(r["promptTokens"] for r in rs), sum(r["completionTokens"] for r in rs)
        f = rs[0]
        out.append(
            f"{t} {len(rs)} {p} {c} | {f['systemTokens']} {f['toolsTokens']} {f['userTokens']}"
        )
    p, c = sum(r["promptTokens"] for r in rows), sum(r["completionTokens"] for r in rows)
    out.append(f"total: {len(turns)} turns, {len(rows)} calls, {p} prompt, {c} completion tokens")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--port", type=int, default=8199, help="loopback port (0: a free one)")
    ap.add_argument("--log", type=Path, help="append one JSON line per request here")
    ap.add_argument("--report", type=Path, metavar="LOG", help="print a --log file per turn; exit")
    ap.add_argument(
        "--count", action="store_true", help="count stdin's characters and tokens; exit"
    )
    a = ap.parse_args()
    if a.report:
        print(report(a.report))
        return 0
    if a.count:
        text = sys.stdin.read().strip()
        print(f"{len(text)} characters, {count_tokens(text)} tokens ({TOKENIZER})")
        return 0
    with FakeEndpoint(port=a.port, log=a.log) as fake:
        print(f"fake endpoint at {fake.url} (tokens: {TOKENIZER})", file=sys.stderr, flush=True)
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill: the totals too
        with contextlib.suppress(KeyboardInterrupt):
            fake.thread.join()
        print(f"totals: {fake.totals}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
