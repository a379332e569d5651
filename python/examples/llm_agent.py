"""An LLM-agent skeleton: the colony's state goes to any chat model, the model answers with JSON
tool calls naming client methods, the agent runs them and feeds the answers back.

The model is a function ``chat(messages) -> str``. ``openai_chat`` speaks the OpenAI-compatible
``/v1/chat/completions`` API (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) with httpx; any other
API fits the same signature. (For MCP clients such as Claude Code, ``colony mcp`` serves the same
actions as tools instead: docs/mcp.md. The reference LLM agent that `colony eval` can score, with
tool calling through MCP, memory and token and cost reports, is agents/llm_agent.py: docs/llm.md.)

    OPENAI_API_KEY=... python examples/llm_agent.py --turns 5     # against COLONY_PORT or 8085
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Callable
from typing import Any

import httpx

import colony

Chat = Callable[[list[dict[str, str]]], str]

#: The client methods the model may call (reads and the usual actions; not game/new or settings).
TOOLS = {
    "summary": "the colony at a glance",
    "placement_find": "spots for a prefab: prefab, x1, y1, x2, y2",
    "building_place": "place a building: prefab, x, y, z, orientation",
    "path_place": "lay a path: x1, y1, x2, y2",
    "cutting_area": "mark trees for cutting: x1, y1, x2, y2, z, marked",
    "planting_mark": "mark an area for planting: x1, y1, x2, y2, z, crop",
    "prefabs": "the buildings with size, cost and unlock state",
    "tree_clusters": "where trees grow densely",
    "food_clusters": "where berries grow densely",
    "buildings": "the buildings (limit, detail)",
}

SYSTEM = (
    "You play a beaver colony-building game through an API. Each turn you get the colony's state. "
    'Answer with one JSON object per line, {"tool": NAME, "args": {...}}, or the single word '
    "DONE when the turn is over. Tools: " + "; ".join(f"{k}: {v}" for k, v in TOOLS.items())
)


def openai_chat(messages: list[dict[str, str]]) -> str:
    """One completion from an OpenAI-compatible endpoint."""
    base = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
    r = httpx.post(
        f"{base}/chat/completions",
        headers={"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}"},
        json={"model": os.environ.get("OPENAI_MODEL", "gpt-4o-mini"), "messages": messages},
        timeout=120,
    )
    r.raise_for_status()
    return str(r.json()["choices"][0]["message"]["content"])


def parse_calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls in a model answer (one JSON object per line; other lines are ignored)."""
    calls = []
    for line in text.splitlines():
        m = re.search(r"\{.*\}", line)
        if not m:
            continue
        try:
            obj = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and obj.get("tool") in TOOLS:
            calls.append((obj["tool"], dict(obj.get("args") or {})))
    return calls


def run_tool(c: colony.Colony, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Runs one call; a refusal is an answer the model should read, not a crash."""
    try:
        return {"ok": getattr(c, name)(**args)}
    except colony.ColonyError as e:
        return {"error": e.code, "detail": e.detail, **e.extras}
    except TypeError as e:
        return {"error": "invalid_args", "detail": str(e)}


def play_turn(c: colony.Colony, chat: Chat, goal: str, max_rounds: int = 6) -> list[dict[str, Any]]:
    """One turn of the model: up to ``max_rounds`` answers; returns the calls it made."""
    state = c.summary()
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Goal: {goal}\nColony: {json.dumps(state)[:6000]}"},
    ]
    made = []
    for _ in range(max_rounds):
        answer = chat(messages)
        messages.append({"role": "assistant", "content": answer})
        calls = parse_calls(answer)
        if not calls:
            break
        results = []
        for name, args in calls:
            res = run_tool(c, name, args)
            made.append({"tool": name, "args": args, **res})
            results.append({"tool": name, **res})
        messages.append({"role": "user", "content": json.dumps(results)[:6000]})
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--turns", type=int, default=1)
    ap.add_argument("--goal", default="Keep the colony alive: water first, then food and homes.")
    a = ap.parse_args()
    port = int(os.environ.get("COLONY_PORT", "8085"))
    with colony.Colony(os.environ.get("COLONY_HOST", "127.0.0.1"), port) as c:
        for turn in range(a.turns):
            made = play_turn(c, openai_chat, os.environ.get("COLONY_GOAL", a.goal))
            print(f"turn {turn + 1}: {len(made)} calls")
            if "COLONY_PROMPT" in os.environ:
                break  # one turn per process under colony eval / colony connect
            c.game_advance(days=1)


if __name__ == "__main__":
    main()
