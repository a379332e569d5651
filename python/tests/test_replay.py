"""Each baseline agent's recorded episode replays hash for hash: ``colony eval`` plays survive-60
seed 1 (two-day turns) with the idle, random and scripted agents, and ``colony replay --check``
rebuilds every episode on a fresh colonyd from its scenario, seed and recorded writes, with the
state hash after each turn equal to the recording's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

AGENTS = {
    "idle": ("per-turn", f"{sys.executable} {REPO / 'agents' / 'idle.py'}"),
    "random": ("per-turn", f"{sys.executable} {REPO / 'agents' / 'random_agent.py'}"),
    "scripted": (
        "persistent",
        f"{sys.executable} {REPO / 'agents' / 'scripted.py'} --persistent",
    ),
}


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_a_baselines_episode_replays_hash_for_hash(
    name: str, tmp_path: Path, colony_bin: str
) -> None:
    mode, agent = AGENTS[name]
    colonyd = os.environ["COLONYD"]
    out = tmp_path / "out"
    subprocess.run(
        [colony_bin, "eval", "--scenario", "survive-60", "--seeds", "1", "--agent", agent]
        + ["--agent-mode", mode, "--turn-hours", "48", "--out", str(out), "--quiet"]
        + ["--colonyd", colonyd],
        check=True,
    )
    episode = out / "episodes" / "survive-60-s1"
    turns = [json.loads(line) for line in (episode / "trajectory.jsonl").read_text().splitlines()]
    # (Idle and random colonies die of thirst within days; the scripted one lives 60.)
    assert len(turns) >= 3 and all(len(t["stateHash"]) == 16 for t in turns)
    if name == "scripted":
        assert len(turns) == 30
    writes = sum(1 for t in turns for r in t["requests"] if "body" in r)
    if name == "idle":
        assert writes == 0
    else:
        assert writes >= len(turns), f"{name} made {writes} writes"
    r = subprocess.run(
        [colony_bin, "replay", "--check", str(episode), "--colonyd", colonyd],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{len(turns)} turns replayed, every state hash matches" in r.stdout, r.stdout
    assert turns[-1]["stateHash"] in r.stdout
