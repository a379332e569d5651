"""The examples against real colonyd processes: the first agent, the LLM skeleton with a scripted
model (no network), the random Gym agent, the throughput table, and the Ray evaluation with a
local ``ray.init()`` compared with ``colony eval`` itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import colony

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(EXAMPLES))

import first_agent  # noqa: E402
import gym_policy  # noqa: E402
import llm_agent  # noqa: E402
import random_gym_agent  # noqa: E402


def test_first_agent_builds_a_pump_and_keeps_a_log(game: colony.Game, tmp_path: Path) -> None:
    logfile = tmp_path / "agent.log"
    with game.client() as c:
        built = first_agent.play(c, str(logfile))
        assert "pump" in built and "tank" in built
        names = [b["name"] for b in c.buildings(limit=0)]
        assert "WaterPump.Folktails" in names and "SmallTank.Folktails" in names
        assert built["path"]["paths"] > 0
        # A second turn builds nothing twice.
        assert first_agent.play(c, str(logfile)) == {}
    text = logfile.read_text()
    assert "placed WaterPump.Folktails" in text and "path:" in text


def test_llm_skeleton_runs_the_models_calls(game: colony.Game) -> None:
    answers = iter(
        [
            'Looking.\n{"tool": "placement_find", "args": {"prefab": "Lodge.Folktails",'
            ' "x1": 0, "y1": 0, "x2": 31, "y2": 31}}',
            '{"tool": "building_place", "args": {"prefab": "Nope", "x": 1, "y": 1, "z": 4,'
            ' "orientation": "south"}}\n{"tool": "settings", "args": {}}',
            "DONE",
        ]
    )
    seen: list[list[dict[str, str]]] = []

    def chat(messages: list[dict[str, str]]) -> str:
        seen.append(list(messages))
        return next(answers)

    with game.client() as c:
        made = llm_agent.play_turn(c, chat, "survive")
    assert [m["tool"] for m in made] == ["placement_find", "building_place"]
    assert made[0]["ok"]["placements"]
    assert made[1]["error"] == "invalid_prefab"
    assert "invalid_prefab" in seen[2][-1]["content"]  # the refusal went back to the model


def test_random_gym_agent_plays_an_episode() -> None:
    # (One action a turn: three days, three steps.)
    [res] = random_gym_agent.run(
        1, 3, map_size=32, turn_hours=24, horizon_days=3, actions_per_turn=1
    )
    assert res["steps"] == 3 and res["score"] > 0


def test_hand_written_policy_keeps_a_colony_alive_60_days() -> None:
    """Issue 36: a policy that acts only through the action space keeps survive-60's colony
    (seed 4, 128 map, half-day turns) alive to the horizon (seed 2 lives too, with 3 beavers
    under rules revision 5: docs/python.md)."""
    pytest.importorskip("colony_engine")
    played = gym_policy.play(4, 60, backend="engine")
    assert played["alive"] and played["day"] >= 60, played
    assert played["beavers"] >= 5 and played["score"] > 50, played
    assert played["placed"]["WaterPump"] >= 1 and played["placed"]["Lodge"] >= 3, played


def test_throughput_prints_its_table() -> None:
    """The throughput example runs every kind of row (a few steps each; no timing asserted)."""
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "throughput.py"), "--steps", "20", "--http-steps", "5"]
        + ["--map", "32", "--vector", "2", "--no-crafter"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert [r.split("|")[1].strip() for r in rows] == [
        "`Colony-v0`, backend `http`",
        "`Colony-v0`, backend `engine`",
        '`make_vector(2, backend="engine")`, 2 threads',
    ]
    assert "Memory per engine world" in out


def test_ray_eval_matches_colony_eval(tmp_path: Path, colony_bin: str) -> None:
    import ray
    import ray_eval

    colonyd = os.environ["COLONYD"]
    agent = f"{sys.executable} {REPO / 'agents' / 'random_agent.py'}"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        res = ray_eval.evaluate(
            ["survive-60"], [1, 2], agent, tmp_path / "ray", colony_bin, colonyd, turn_hours=48
        )
    finally:
        ray.shutdown()
    written = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert written == json.loads(json.dumps(res))
    direct = tmp_path / "direct"
    subprocess.run(
        [colony_bin, "eval", "--scenario", "survive-60", "--seeds", "1,2", "--agent", agent]
        + ["--out", str(direct), "--quiet", "--turn-hours", "48", "--colonyd", colonyd],
        check=True,
    )
    want = json.loads((direct / "results.json").read_text())
    assert set(written) == set(want)
    keys = ("score", "episodesPlayed", "achievements", "achievementTitles", "scenarios", "version")
    for key in keys + ("split", "seeds", "harness", "invalidEpisodes", "tamperedEpisodes"):
        assert written[key] == want[key], key
    strip = ("wallSeconds",)
    got_eps = [{k: v for k, v in e.items() if k not in strip} for e in written["episodes"]]
    want_eps = [{k: v for k, v in e.items() if k not in strip} for e in want["episodes"]]
    assert got_eps == want_eps


@pytest.mark.parametrize("script", sorted((REPO / "agents").glob("*.py")), ids=lambda p: p.name)
def test_shipped_agents_start_as_colony_eval_starts_them(script: Path) -> None:
    """Each shipped agent runs as ``python3 -I agents/NAME.py`` without an import error: in
    isolated mode its own folder is not on ``sys.path``, so an agent that imports another finds it
    itself, and no agent may share a name with a standard-library module it or a library imports
    (``random.py`` once shadowed ``random``). With no service to reach, it fails on the
    connection, after its imports."""
    assert script.stem not in sys.stdlib_module_names, f"{script.name} shadows a stdlib module"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COLONY_")}
    env.update({"COLONY_HOST": "127.0.0.1", "COLONY_PORT": "1", "COLONY_TURN": "1"})
    r = subprocess.run(
        [sys.executable, "-I", str(script)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=script.parent,
    )
    assert "ImportError" not in r.stderr and "ModuleNotFoundError" not in r.stderr, r.stderr
    assert "circular import" not in r.stderr, r.stderr


def test_agents_use_only_what_their_sibling_modules_define() -> None:
    """Every ``module.NAME`` an agent reads from a sibling agent module (``scripted.plant_around``,
    ``industry_kit.WHEELS``...) exists there: a function moved to another module is caught here,
    not on an evaluation's first turn that calls it."""
    import ast
    import importlib

    agents = REPO / "agents"
    siblings = {p.stem for p in agents.glob("*.py")}
    saved = list(sys.path)
    sys.path.insert(0, str(agents))
    try:
        missing = []
        for script in sorted(agents.glob("*.py")):
            tree = ast.parse(script.read_text())
            imported = {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.Import)
                for alias in node.names
                if alias.name in siblings and alias.asname is None
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in imported
                ):
                    module = importlib.import_module(node.value.id)
                    if not hasattr(module, node.attr):
                        missing.append(f"{script.name}: {node.value.id}.{node.attr}")
        assert not missing, missing
    finally:
        sys.path[:] = saved
