"""The scripted reference agent (agents/scripted.py) keeps colonies alive through `colony eval`:
a short run of both factions so it never rots (the 60-day runs are a documented command in
docs/evaluation.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_examples import REPO

SCENARIO = """
id = "survive-{days}{suffix}"
title = "Survive {days} days ({faction}), the scripted agent's CI run"
goal = "Keep the colony alive."
horizon_days = {days}
turn_hours = 24

[game]
faction = "{faction}"
mode = "Normal"
map = 128
seeds = [1, 2]

[[success]]
metric = "days_survived"
op = ">="
value = {days}

[[score]]
metric = "days_survived"
weight = 1
target = {days}
"""


def test_the_scripted_agent_keeps_both_factions_alive_for_20_days(
    tmp_path: Path, colony_bin: str
) -> None:
    days = 20
    files = []
    for faction, suffix in (("Folktails", ""), ("IronTeeth", "-it")):
        f = tmp_path / f"survive{suffix}.toml"
        f.write_text(SCENARIO.format(days=days, faction=faction, suffix=suffix))
        files.append(str(f))
    agent = f"{sys.executable} {REPO / 'agents' / 'scripted.py'}"
    out = tmp_path / "out"
    subprocess.run(
        [colony_bin, "eval", "--scenario", ",".join(files), "--agent", agent]
        + ["--out", str(out), "--quiet", "--parallel", "2", "--colonyd", os.environ["COLONYD"]],
        check=True,
    )
    results = json.loads((out / "results.json").read_text())
    for ep in results["episodes"]:
        assert ep["daysSurvived"] >= days and not ep["gameOver"], ep
        assert ep["agentFailures"] == 0 and ep["timeouts"] == 0, ep
    # The agent explains itself: one line per decision in the agent log.
    log = (out / "episodes" / results["episodes"][0]["id"] / "agent.log").read_text()
    assert "placed WaterPump" in log, log[:2000]


def test_the_scripted_agent_plays_the_same_game_persistent(tmp_path: Path, colony_bin: str) -> None:
    """`scripted.py --persistent` (one process for the episode, `--agent-mode persistent`) plays
    exactly the game of one process per turn: the same final save, byte for byte."""
    f = tmp_path / "survive.toml"
    f.write_text(SCENARIO.format(days=6, faction="Folktails", suffix=""))
    agent = f"{sys.executable} {REPO / 'agents' / 'scripted.py'}"
    saves = []
    for mode, extra in (("per-turn", ""), ("persistent", " --persistent")):
        out = tmp_path / mode
        subprocess.run(
            [colony_bin, "eval", "--scenario", str(f), "--seeds", "1"]
            + ["--agent-mode", mode, "--agent", agent + extra, "--out", str(out), "--quiet"]
            + ["--colonyd", os.environ["COLONYD"]],
            check=True,
        )
        results = json.loads((out / "results.json").read_text())
        assert results["harness"]["agentMode"] == mode
        (ep,) = results["episodes"]
        assert ep["agentFailures"] == 0 and ep["turns"] == 6, ep
        assert ep.get("agentProcesses") == (1 if mode == "persistent" else None), ep
        saves.append((out / "episodes" / ep["id"] / "final.colony.json").read_bytes())
    assert saves[0] == saves[1], "the two modes played different games"
