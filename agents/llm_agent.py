#!/usr/bin/env python3
"""The reference LLM agent: any OpenAI-compatible chat model plays Colony through MCP.

Each turn it starts the episode's MCP server (`COLONY_MCP_COMMAND`, which `colony eval` hands
every agent; `colony mcp` otherwise), turns the server's tools into chat-completions `tools`, and
lets the model call them until it stops calling tools, calls `advance` (in an evaluation the
harness advances the game between turns, so `advance` means "end my turn"), or reaches the turn's
limits. The endpoint is `OPENAI_BASE_URL` (default https://api.openai.com/v1) with
`OPENAI_API_KEY`; the model is `--model` or `COLONY_LLM_MODEL`. Local servers (llama.cpp's
server, vLLM, Ollama) work the same: plain `POST /chat/completions` with `tools` and `tool_calls`.

Memory across turns lives in the notes folder (`COLONY_AGENT_STATE_DIR`): `notes.md`, which the
model rewrites with the local tool `write_notes` (capped), and `turns.jsonl`, a line per turn
(tools called, the model's last words); the notes and the last turns go into each turn's prompt.

Usage (prompt and completion tokens from the endpoint's `usage`, and the cost when prices are
given) is reported per turn through the harness's channel: `usage.json` in the notes folder, or
the reply line with `--persistent` (docs/evaluation.md, "Usage reporting"). docs/llm.md says how
to evaluate a model and what a turn costs:

    export OPENAI_API_KEY=... COLONY_LLM_MODEL=gpt-4o-mini
    colony eval --scenario survive-60 --agent-mode persistent --turn-timeout 600 \\
        --agent '.venv-py/bin/python agents/llm_agent.py --persistent --turn-seconds 540'

Needs `httpx` and the MCP Python SDK (`mcp`), as python/requirements-ci.txt pins them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# This folder holds `random_agent.py`, which would shadow the standard library's `random` for
# the libraries imported below: leave the script's own folder off the import path.
HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import httpx  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.stdio import get_default_environment  # noqa: E402
from mcp_types import CallToolResult, TextContent, Tool  # noqa: E402

SYSTEM = """You are an agent playing Colony, a headless colony-building game like Timberborn.
You act only through the tools. Each turn: look (colony_overview first), then act on what is
most urgent, check the tools' answers (errors say what to do instead), and end the turn by
answering without a tool call{advance}. Keep notes for your next turns with write_notes: your
plan, where things are, what failed. Be brief in words; the tool calls are what count."""

ADVANCE_IN_EVAL = (
    "End your turn. In this evaluation the harness advances the game by {hours} game hours after "
    "your turn; the arguments are ignored. Call it (or answer without a tool call) when done."
)

WRITE_NOTES = {
    "type": "function",
    "function": {
        "name": "write_notes",
        "description": (
            "Replace your notes (kept across turns and shown at the start of every turn) with "
            "`text`, at most {cap} characters; longer text is cut."
        ),
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "the whole new notes"}},
            "required": ["text"],
            "additionalProperties": False,
        },
    },
}

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class EndpointError(Exception):
    """The chat endpoint failed after its retries (or with an answer not worth retrying)."""


@dataclass
class Usage:
    """What a turn spent: tokens from the endpoint's `usage` fields, summed over its calls."""

    model: str
    prompt: int = 0
    completion: int = 0
    calls: int = 0
    counted: bool = False  # at least one answer carried `usage`

    def add(self, usage: Any) -> None:
        self.calls += 1
        if not isinstance(usage, dict):
            return
        p, c = usage.get("prompt_tokens"), usage.get("completion_tokens")
        if isinstance(p, int) and isinstance(c, int) and p >= 0 and c >= 0:
            self.prompt += p
            self.completion += c
            self.counted = True

    def report(self, price_in: float | None, price_out: float | None) -> dict[str, Any]:
        """The harness's `agentUsage` object: tokens when the endpoint counted them, the cost
        when both prices are known (an unknown cost is left out, not reported as 0)."""
        out: dict[str, Any] = {"model": self.model}
        if self.counted:
            out["promptTokens"] = self.prompt
            out["completionTokens"] = self.completion
            if price_in is not None and price_out is not None:
                cost = (self.prompt * price_in + self.completion * price_out) / 1e6
                out["cost"] = round(cost, 6)
        return out


@dataclass
class Turn:
    """One turn as the harness hands it (environment in per-turn mode, a JSON line otherwise)."""

    prompt: str
    number: int
    turns: int
    day: int
    hours: float
    goal: str


@dataclass
class Outcome:
    ok: bool
    usage: Usage
    tools: list[str] = field(default_factory=list)
    final: str = ""
    why: str = ""


def log(text: str) -> None:
    """Progress goes to stderr (agent.log); stdout carries only reply lines when persistent."""
    print(f"llm_agent: {text}", file=sys.stderr, flush=True)


# --- The chat endpoint -------------------------------------------------------------------------


class Chat:
    """`POST {base}/chat/completions` with bounded retries on time-outs, transport errors,
    429 and 5xx answers, and answers without a message."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.url = args.base_url.rstrip("/") + "/chat/completions"
        key = os.environ.get("OPENAI_API_KEY", "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.AsyncClient(headers=headers)
        self.args = args

    async def close(self) -> None:
        await self.http.aclose()

    async def complete(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        """One answer (the whole JSON); raises EndpointError with a one-line reason."""
        why = ""
        for attempt in range(self.args.retries + 1):
            left = deadline - time.monotonic()
            if left <= 1:
                raise EndpointError(f"the turn's time is up ({why or 'before the call'})")
            if attempt:
                await asyncio.sleep(min(2.0 ** (attempt - 1), left / 2))
            try:
                r = await self.http.post(
                    self.url, json=body, timeout=min(self.args.request_timeout, left)
                )
            except httpx.TimeoutException:
                why = f"no answer within {min(self.args.request_timeout, left):.0f} s"
                continue
            except httpx.HTTPError as e:
                why = f"{type(e).__name__}: {e}"
                continue
            if r.status_code != 200:
                why = f"HTTP {r.status_code}: {r.text[:300]!r}"
                if r.status_code in RETRY_STATUS:
                    continue
                raise EndpointError(why)
            try:
                answer = r.json()
                message = answer["choices"][0]["message"]
                if not isinstance(message, dict):
                    raise TypeError("message is not an object")
            except (ValueError, KeyError, IndexError, TypeError) as e:
                why = f"an answer without choices[0].message ({e}): {r.text[:200]!r}"
                continue
            return answer
        raise EndpointError(f"{why} (after {self.args.retries + 1} tries)")


# --- Tools: MCP's as chat functions, plus the local write_notes -------------------------------


def chat_tools(
    tools: list[Tool], args: argparse.Namespace, turn_hours: float
) -> list[dict[str, Any]]:
    """The MCP tools as chat-completions function tools, then `write_notes`. In an evaluation
    `advance` is refused by the server, so it is offered as the way to end the turn."""
    out: list[dict[str, Any]] = []
    for t in tools:
        schema = dict(t.input_schema)
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        description = t.description or t.title or t.name
        if t.name == "advance" and in_eval():
            description = ADVANCE_IN_EVAL.format(hours=f"{turn_hours:g}")
            schema = {"type": "object", "properties": {}}
        fn = {"name": t.name, "description": description, "parameters": schema}
        out.append({"type": "function", "function": fn})
    notes = json.loads(json.dumps(WRITE_NOTES))
    notes["function"]["description"] = notes["function"]["description"].format(cap=args.notes_chars)
    out.append(notes)
    return out


def in_eval() -> bool:
    return os.environ.get("COLONY_MODE") == "eval"


def text_of(result: CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


def server_params() -> StdioServerParameters:
    """The episode's MCP server: `COLONY_MCP_COMMAND`, else `colony mcp` (on PATH)."""
    argv = shlex.split(os.environ.get("COLONY_MCP_COMMAND") or "colony mcp")
    env = get_default_environment()
    env.update({k: v for k, v in os.environ.items() if k.startswith("COLONY_")})
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


# --- Memory in the notes folder -----------------------------------------------------------------


class Memory:
    """`notes.md` (the model's own, capped) and `turns.jsonl` (the last turns, a line each)."""

    def __init__(self, folder: Path, notes_cap: int, keep: int) -> None:
        self.notes_path = folder / "notes.md"
        self.turns_path = folder / "turns.jsonl"
        self.cap = notes_cap
        self.keep = keep

    def notes(self) -> str:
        try:
            return self.notes_path.read_text(encoding="utf-8")[: self.cap]
        except OSError:
            return ""

    def write_notes(self, text: str) -> str:
        kept = text[: self.cap]
        try:
            self.notes_path.write_text(kept, encoding="utf-8")
        except OSError as e:
            return f"error: the notes could not be saved ({e})"
        cut = f"; cut from {len(text)} to the cap of {self.cap}" if len(text) > self.cap else ""
        return f"notes saved ({len(kept)} characters{cut})"

    def last_turns(self) -> list[dict[str, Any]]:
        try:
            lines = self.turns_path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        out = []
        for line in lines[-self.keep :]:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def remember(self, turn: Turn, outcome: Outcome) -> None:
        entry = {
            "turn": turn.number,
            "day": turn.day,
            "tools": outcome.tools,
            "said": outcome.final[:300],
        }
        if not outcome.ok:
            entry["ended"] = outcome.why[:200]
        kept = (
            [json.dumps(e) for e in self.last_turns()[-(self.keep - 1) :]] if self.keep > 1 else []
        )
        kept.append(json.dumps(entry))
        try:
            self.turns_path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        except OSError as e:
            log(f"turn {turn.number}: {self.turns_path} not written ({e})")

    def prompt(self) -> str:
        parts = []
        notes = self.notes().strip()
        parts.append(
            "Your notes (write_notes replaces them):\n" + notes
            if notes
            else "You have no notes yet."
        )
        turns = self.last_turns()
        if turns:
            lines = []
            for e in turns:
                tools = ", ".join(e.get("tools", [])) or "no tools"
                said = f' — "{e["said"]}"' if e.get("said") else ""
                ended = f" (ended early: {e['ended']})" if e.get("ended") else ""
                lines.append(f"- turn {e.get('turn')} (day {e.get('day')}): {tools}{said}{ended}")
            parts.append("Your last turns:\n" + "\n".join(lines))
        return "\n\n".join(parts)


# --- One turn -----------------------------------------------------------------------------------


def normal_call(call: Any, step: int, index: int) -> dict[str, Any]:
    """A tool call as the next request must repeat it: an id, a name, and the arguments as a
    string (some local servers send them as an object)."""
    call = call if isinstance(call, dict) else {}
    fn = call.get("function") if isinstance(call.get("function"), dict) else {}
    args = fn.get("arguments", "")
    if not isinstance(args, str):
        args = json.dumps(args)
    return {
        "id": str(call.get("id") or f"call_{step}_{index}"),
        "type": "function",
        "function": {"name": str(fn.get("name") or "?"), "arguments": args},
    }


def why_failed(error: BaseException) -> str:
    """One line for a failed turn. The MCP client's task groups wrap what was raised inside
    them in exception groups: name the first error inside."""
    while isinstance(getattr(error, "exceptions", None), (list, tuple)) and error.exceptions:
        error = error.exceptions[0]  # (BaseExceptionGroup, or its backport on Python 3.10)
    if isinstance(error, EndpointError):
        return f"the chat endpoint failed: {error}"
    where = type(error).__module__.split(".")[0]
    what = "the MCP session" if where in ("mcp", "mcp_types", "anyio") else "the turn"
    if isinstance(error, OSError):
        what = "the MCP server"
    return f"{what} failed: {type(error).__name__}: {error}"


class Agent:
    """Plays turns; everything it keeps between them is in the notes folder."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.folder = folder
        self.memory = Memory(folder, args.notes_chars, args.memory_turns)

    def save_usage(self, usage: Usage) -> None:
        """Per-turn mode: usage.json after every model call, so a turn killed at its time-out
        still reports what it spent (the harness reads the file whatever the turn's outcome)."""
        if self.args.persistent:
            return
        path = self.folder / "usage.json"
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(usage.report(self.args.price_in, self.args.price_out)))
            tmp.replace(path)
        except OSError as e:
            log(f"usage not reported: {path} not written ({e})")

    async def play(self, turn: Turn) -> Outcome:
        outcome = Outcome(ok=False, usage=Usage(self.args.model))
        deadline = time.monotonic() + self.args.turn_seconds
        chat = Chat(self.args)
        try:
            async with Client(server_params(), read_timeout_seconds=60) as mcp:
                await self.loop(mcp, chat, turn, outcome, deadline)
        except Exception as e:  # one line on stderr, no traceback: the turn ends
            outcome.ok, outcome.why = False, why_failed(e)
        finally:
            await chat.close()
        if outcome.why:
            log(f"turn {turn.number}: {outcome.why}")
        self.memory.remember(turn, outcome)
        self.save_usage(outcome.usage)
        return outcome

    async def system_prompt(self, mcp: Client, turn: Turn) -> str:
        text = SYSTEM.format(advance=" or by calling advance" if in_eval() else "")
        try:  # the server's play_turn prompt teaches the game with the profile's tool names
            got = await mcp.get_prompt("play_turn", {"goal": turn.goal, "turn": str(turn.number)})
            body = got.messages[0].content
            if isinstance(body, TextContent):
                text += "\n\n" + body.text
        except Exception as e:  # a server without the prompt: play without it
            log(f"no play_turn prompt ({e})")
        return text

    async def loop(
        self, mcp: Client, chat: Chat, turn: Turn, outcome: Outcome, deadline: float
    ) -> None:
        """The turn's tool-call loop; ends when the model answers without a tool call, calls
        `advance` (in an evaluation), or the turn's answers, tool calls or time are used up."""
        a = self.args
        listed = (await mcp.list_tools()).tools
        names = {t.name for t in listed}
        tools = chat_tools(listed, a, turn.hours)
        limits = (
            f"This turn allows at most {a.max_model_calls} of your answers and "
            f"{a.max_tool_calls} tool calls."
        )
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": await self.system_prompt(mcp, turn)},
            {
                "role": "user",
                "content": f"{turn.prompt.rstrip()}\n\n{self.memory.prompt()}\n\n{limits}",
            },
        ]
        calls = 0
        outcome.ok = True  # from here on the turn counts as played, however it ends
        for step in range(a.max_model_calls):
            if time.monotonic() >= deadline:
                log(f"turn {turn.number}: the turn's {a.turn_seconds:g} s are used up")
                return
            body: dict[str, Any] = {"model": a.model, "messages": messages, "tools": tools}
            if a.max_tokens:
                body["max_tokens"] = a.max_tokens
            if a.temperature is not None:
                body["temperature"] = a.temperature
            answer = await chat.complete(body, deadline)
            outcome.usage.add(answer.get("usage"))
            self.save_usage(outcome.usage)
            message = answer["choices"][0]["message"]
            content = message.get("content")
            content = content.strip() if isinstance(content, str) else ""
            wanted = message.get("tool_calls")
            wanted = wanted if isinstance(wanted, list) else []
            said: dict[str, Any] = {"role": "assistant", "content": content or None}
            if wanted:
                said["tool_calls"] = [normal_call(c, step, i) for i, c in enumerate(wanted)]
            messages.append(said)
            if content:
                outcome.final = content
            if not wanted:
                return
            end = False
            for call in said["tool_calls"]:
                if calls >= a.max_tool_calls:
                    reply, end = "refused: this turn's tool calls are used up; the turn ends", True
                else:
                    calls += 1
                    reply, ends = await self.run_tool(mcp, names, call, turn, outcome)
                    end = end or ends
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": reply})
            if end:
                return
        log(f"turn {turn.number}: its {a.max_model_calls} answers are used up")

    async def run_tool(
        self, mcp: Client, names: set[str], call: dict[str, Any], turn: Turn, outcome: Outcome
    ) -> tuple[str, bool]:
        """One tool call: the answer for the model, and whether it ends the turn."""
        name, raw = call["function"]["name"], call["function"]["arguments"]
        try:
            args = json.loads(raw) if raw.strip() else {}
            if not isinstance(args, dict):
                raise ValueError("not an object")
        except ValueError as e:
            log(f"turn {turn.number}: {name}: malformed arguments {raw[:120]!r}")
            return f"error: the arguments are not a JSON object ({e}); send one", False
        outcome.tools.append(name)
        if name == "write_notes":
            return self.memory.write_notes(str(args.get("text", ""))), False
        if name == "advance" and in_eval():
            return "your turn ends; the harness advances the game", True
        if name not in names:
            known = ", ".join(sorted(names | {"write_notes"}))
            return f"error: unknown tool {name!r}; the tools are: {known}", False
        try:
            result = await mcp.call_tool(name, args)
        except Exception as e:  # a protocol error is an answer for the model too
            return f"error: {e}", False
        text = text_of(result)
        log(f"turn {turn.number}: {name} {'error' if result.is_error else 'ok'}, {len(text)} chars")
        if len(text) > self.args.tool_chars:
            text = text[: self.args.tool_chars] + "\n[cut: ask narrower, or a smaller maxChars]"
        return text, name == "advance"  # outside an evaluation advance ran: the turn is over


# --- Modes --------------------------------------------------------------------------------------


def env_turn(prompt: str) -> Turn:
    """The turn of a per-turn process, from the COLONY_* variables."""
    e = os.environ
    return Turn(
        prompt=prompt or e.get("COLONY_PROMPT", ""),
        number=int(e.get("COLONY_TURN", "1")),
        turns=int(e.get("COLONY_TURNS", "1")),
        day=int(float(e.get("COLONY_DAY", "0"))),
        hours=float(e.get("COLONY_TURN_HOURS", "24")),
        goal=e.get("COLONY_GOAL", ""),
    )


def line_turn(obj: dict[str, Any]) -> Turn:
    """A persistent agent's turn, from its JSON line."""
    return Turn(
        prompt=str(obj.get("prompt", "")),
        number=int(obj.get("turn", 0)),
        turns=int(obj.get("turns", 0)),
        day=int(obj.get("day", 0)),
        hours=float(obj.get("turnHours", 24)),
        goal=os.environ.get("COLONY_GOAL", ""),
    )


def summary(turn: Turn, outcome: Outcome) -> str:
    u = outcome.usage
    return (
        f"turn {turn.number}: {'played' if outcome.ok else 'failed'}, {u.calls} model calls, "
        f"{len(outcome.tools)} tool calls, tokens {u.prompt}+{u.completion}"
    )


def persistent(agent: Agent) -> int:
    """One turn per JSON line on stdin, a reply line on stdout when it is played."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            turn = line_turn(obj)
        except (ValueError, TypeError, AttributeError) as e:
            log(f"a turn line that is not a turn ({e}): {line[:200]!r}")
            continue
        outcome = asyncio.run(agent.play(turn))
        log(summary(turn, outcome))
        a = agent.args
        reply = {
            "done": outcome.ok,
            "turn": turn.number,
            "usage": outcome.usage.report(a.price_in, a.price_out),
        }
        if not outcome.ok:
            reply["error"] = outcome.why
        print(json.dumps(reply), flush=True)
    return 0


def per_turn(agent: Agent) -> int:
    prompt = "" if sys.stdin.isatty() else sys.stdin.read()
    turn = env_turn(prompt)
    outcome = asyncio.run(agent.play(turn))
    log(summary(turn, outcome))
    return 0 if outcome.ok else 1


async def dump_tools(args: argparse.Namespace) -> int:
    """Prints the `tools` array the model is sent (compact JSON), for measuring its size."""
    async with Client(server_params(), read_timeout_seconds=60) as mcp:
        listed = (await mcp.list_tools()).tools
    hours = float(os.environ.get("COLONY_TURN_HOURS", "24"))
    print(json.dumps(chat_tools(listed, args, hours), separators=(",", ":")))
    return 0


def price(flag: float | None, env: str) -> float | None:
    if flag is not None:
        return flag
    value = os.environ.get(env)
    return float(value) if value else None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--model",
        default=os.environ.get("COLONY_LLM_MODEL"),
        help="the model's name (default: $COLONY_LLM_MODEL)",
    )
    ap.add_argument(
        "--base-url",
        default=os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1",
        help="the OpenAI-compatible API (default: $OPENAI_BASE_URL or OpenAI's)",
    )
    ap.add_argument(
        "--persistent",
        action="store_true",
        help="one process per episode (colony eval --agent-mode persistent)",
    )
    ap.add_argument("--max-model-calls", type=int, default=12, help="answers per turn (12)")
    ap.add_argument("--max-tool-calls", type=int, default=30, help="tool calls per turn (30)")
    ap.add_argument(
        "--turn-seconds",
        type=float,
        default=100,
        help="no model call starts after this many seconds of a turn (100; keep it "
        "under colony eval --turn-timeout, default 120)",
    )
    ap.add_argument("--request-timeout", type=float, default=90, help="seconds per model call (90)")
    ap.add_argument(
        "--retries",
        type=int,
        default=2,
        help="retries of a model call after a time-out, a transport error, 429 or 5xx (2)",
    )
    ap.add_argument(
        "--max-tokens",
        type=int,
        default=0,
        help="max_tokens per answer (0: not sent, the server's default)",
    )
    ap.add_argument("--temperature", type=float, default=None, help="sent when given")
    ap.add_argument(
        "--price-in",
        type=float,
        default=None,
        help="USD per million prompt tokens (default: $COLONY_LLM_PRICE_IN)",
    )
    ap.add_argument(
        "--price-out",
        type=float,
        default=None,
        help="USD per million completion tokens (default: $COLONY_LLM_PRICE_OUT)",
    )
    ap.add_argument("--notes-chars", type=int, default=4000, help="cap of notes.md (4000)")
    ap.add_argument(
        "--memory-turns", type=int, default=5, help="last turns summarised in the prompt (5)"
    )
    ap.add_argument(
        "--tool-chars",
        type=int,
        default=16000,
        help="cap on one tool answer's text handed to the model (16000)",
    )
    ap.add_argument(
        "--dump-tools",
        action="store_true",
        help="print the tools array the model gets (compact JSON) and exit",
    )
    args = ap.parse_args(argv)
    args.price_in = price(args.price_in, "COLONY_LLM_PRICE_IN")
    args.price_out = price(args.price_out, "COLONY_LLM_PRICE_OUT")
    if not args.model and not args.dump_tools:
        ap.error("no model: give --model or set COLONY_LLM_MODEL")
    return args


def notes_folder() -> Path:
    """`COLONY_AGENT_STATE_DIR` (absolute: `colony eval` resolves it), else the current folder."""
    return Path(os.environ.get("COLONY_AGENT_STATE_DIR") or Path.cwd())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.dump_tools:
        return asyncio.run(dump_tools(args))
    folder = notes_folder()
    agent = Agent(args, folder)
    return persistent(agent) if args.persistent else per_turn(agent)


if __name__ == "__main__":
    sys.exit(main())
