"""The reference LLM agent (agents/llm_agent.py) against a fake OpenAI-compatible endpoint
(tools/fake_llm.py: a local HTTP server answering with scripted tool calls): the real
`colony eval` plays a short scenario to the end through the real `colony mcp`, in both agent
modes; the endpoint's failures end a turn with one line on stderr."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
AGENT = REPO / "agents" / "llm_agent.py"

SCENARIO = """
id = "llm-3"
title = "Three days, the LLM agent's CI run"
goal = "Keep the colony alive."
horizon_days = 3
turn_hours = 24

[game]
faction = "Folktails"
mode = "Normal"
map = 128
seeds = [1]

[[score]]
metric = "days_survived"
weight = 1
target = 3
"""

PRICE_IN, PRICE_OUT = 2.5, 10.0


def load_fake() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fake_llm", REPO / "tools" / "fake_llm.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["fake_llm"] = module
    spec.loader.exec_module(module)
    return module


fake_llm = load_fake()


def core_tools(colony_bin: str) -> list[str]:
    """The core profile's tool names, as the real `colony mcp` lists them."""

    async def names() -> list[str]:
        params = StdioServerParameters(command=colony_bin, args=["mcp", "--port", "1"])
        async with Client(params) as client:
            return [t.name for t in (await client.list_tools()).tools]

    return asyncio.run(names())


def tool_answers(body: dict[str, Any]) -> dict[str, str]:
    """tool_call_id -> the tool message's content, in a request."""
    return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}


@pytest.mark.parametrize("mode", ["per-turn", "persistent"])
def test_the_llm_agent_plays_an_episode_through_mcp(
    tmp_path: Path, colony_bin: str, mode: str
) -> None:
    scenario = tmp_path / "llm-3.toml"
    scenario.write_text(SCENARIO)
    out = tmp_path / "out"  # given relative, as people do: the agent runs in its notes folder
    agent = f"{sys.executable} {AGENT} --model fake-1 --price-in {PRICE_IN} --price-out {PRICE_OUT}"
    if mode == "persistent":
        agent += " --persistent"
    with fake_llm.FakeEndpoint() as fake:
        env = {**os.environ, "OPENAI_BASE_URL": fake.url, "OPENAI_API_KEY": "sk-test"}
        subprocess.run(
            [colony_bin, "eval", "--scenario", str(scenario), "--seeds", "1", "--out", "out"]
            + ["--agent-mode", mode, "--agent", agent, "--quiet"]
            + ["--colonyd", os.environ["COLONYD"]],
            check=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
    results = json.loads((out / "results.json").read_text())
    (ep,) = results["episodes"]
    log = (out / "episodes" / ep["id"] / "agent.log").read_text()
    assert ep["status"] == "ok" and ep["turns"] == 3, (ep, log)
    assert ep["agentFailures"] == 0 and ep["timeouts"] == 0, (ep, log)
    assert "Traceback" not in log, log

    # Usage: the endpoint's token counts, summed by the harness, priced per million tokens.
    totals = fake.totals
    assert totals["calls"] == 6 + 3 + 2, totals  # the script's answers on turns 1, 2 and 3
    want = {"model": "fake-1", "promptTokens": totals["prompt"]}
    want["completionTokens"] = totals["completion"]
    for usage in (results["agentUsage"], ep["agentUsage"]):
        assert {k: usage[k] for k in want} == want, usage
        cost = (totals["prompt"] * PRICE_IN + totals["completion"] * PRICE_OUT) / 1e6
        assert usage["cost"] == pytest.approx(cost, abs=1e-5), usage

    # The trajectory records the MCP tools the fake model called (write_notes is the agent's own;
    # advance ends the turn in an evaluation and never reaches the server).
    lines = (out / "episodes" / ep["id"] / "trajectory.jsonl").read_text().splitlines()
    turns = [json.loads(line) for line in lines]
    called = [[c["tool"] for c in t.get("toolCalls", [])] for t in turns]
    assert called == [
        ["colony_overview", "build", "build", "build", "build", "log_message"],
        ["colony_overview"],
        ["colony_overview"],
    ], called
    assert all(t["agentUsage"]["promptTokens"] > 0 for t in turns), turns
    assert turns[0]["toolCalls"][1]["arguments"] == {"prefab": "WaterPump.Folktails"}
    flag = turns[0]["toolCalls"][3]["arguments"]  # by the summary's first food cluster
    assert flag["prefab"] == "GathererFlag.Folktails" and {"x", "y"} <= set(flag), flag

    # The endpoint got the core profile's tools (plus write_notes) on every request, and each
    # tool call's answer in the next request.
    core = core_tools(colony_bin)
    for body in fake.requests:
        names = [t["function"]["name"] for t in body["tools"]]
        assert names == [*core, "write_notes"], names
        assert body["model"] == "fake-1"
    advance = next(t for t in fake.requests[0]["tools"] if t["function"]["name"] == "advance")
    assert "End your turn" in advance["function"]["description"], advance
    overview = tool_answers(fake.requests[1])["call_1_0"]
    assert len(overview) == turns[0]["toolCalls"][0]["chars"] and "population" in overview, overview
    answers = tool_answers(fake.requests[5])
    assert answers["call_1_4"].startswith("notes saved"), answers
    assert "call_1_4b" in answers and "call_1_2b" in tool_answers(fake.requests[3]), answers
    malformed = tool_answers(fake.requests[8])["call_2_1"]
    assert malformed.startswith("error: the arguments are not a JSON object"), malformed

    # Memory: turn 2's prompt carries the notes written on turn 1 and a line about that turn.
    turn2 = next(b for b in fake.requests if "Turn 2 of 3" in b["messages"][1]["content"])
    prompt = turn2["messages"][1]["content"]
    assert "Turn 1: a WaterPump.Folktails, a tank, a flag, a home." in prompt, prompt
    assert "- turn 1 (day 1): colony_overview, build, build, build, build, write_notes" in prompt, (
        prompt
    )
    assert "colony_overview" in turn2["messages"][0]["content"]  # the server's play_turn prompt
    state = out / "episodes" / ep["id"] / "agent-state"
    assert not (state / "usage.json").exists()  # read and removed by the harness (per-turn)


def run_alone(
    tmp_path: Path, colony_bin: str, url: str, *flags: str
) -> subprocess.CompletedProcess[str]:
    """One per-turn run of the agent outside an evaluation, its MCP server on a dead port."""
    env = {
        **os.environ,
        "OPENAI_BASE_URL": url,
        "COLONY_MCP_COMMAND": f"{colony_bin} mcp --port 1",
        "COLONY_AGENT_STATE_DIR": str(tmp_path),
        "COLONY_TURN": "2",
    }
    env.pop("COLONY_MODE", None)
    return subprocess.run(
        [sys.executable, str(AGENT), "--model", "fake-1", "--retries", "1", *flags],
        input="Turn 2 of 3: day 2",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_endpoint_failures_are_retried_then_end_the_turn_in_one_line(
    tmp_path: Path, colony_bin: str
) -> None:
    with fake_llm.FakeEndpoint() as fake:
        # A 503 is retried: the turn is played (an overview, a malformed call, a last word).
        fake.fail = [503]
        ok = run_alone(tmp_path, colony_bin, fake.url)
        assert ok.returncode == 0, ok.stderr
        assert len(fake.requests) == 4 and fake.totals["calls"] == 3, fake.totals
        usage = json.loads((tmp_path / "usage.json").read_text())
        assert usage["promptTokens"] == fake.totals["prompt"] and "cost" not in usage, usage
        # 401 is not retried: the turn fails with one line naming it.
        fake.fail = [401, 401]
        bad = run_alone(tmp_path, colony_bin, fake.url)
        assert bad.returncode == 1, bad.stderr
        assert "the chat endpoint failed: HTTP 401" in bad.stderr, bad.stderr
        assert fake.fail == [401], "a 401 was retried"
    # Nobody listening: retried, then the same kind of line; never a traceback.
    gone = run_alone(tmp_path, colony_bin, fake.url)
    assert gone.returncode == 1, gone.stderr
    assert "the chat endpoint failed: ConnectError" in gone.stderr, gone.stderr
    assert "(after 2 tries)" in gone.stderr, gone.stderr
    for run in (ok, bad, gone):
        assert "Traceback" not in run.stderr, run.stderr
