"""The PPO baseline (``colony.rl.ppo``) and its ``colony eval`` agent (``agents/ppo.py``): the
policy's logits land on the action layout, masked actions are never drawn, a short training run
on a small map goes through (it learns nothing in that time; it proves the loop runs and writes
its checkpoint and curve), and the agent plays under ``colony eval`` exactly the game the policy
plays in ``Colony-v0`` (the same score and state hash on the same seed)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason="PyTorch is not installed (the optional `rl` extra: pip install './python[rl]')"
)

import colony.gym as cg  # noqa: E402
from colony.gym.actions import Layout  # noqa: E402
from colony.rl import ppo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_tile_logits_land_on_the_layouts_actions() -> None:
    p_n, c_n, h, w = 3, 2, 5, 7
    lay = Layout(w, h, p_n, c_n)
    ch = 4 * p_n + 2 + c_n
    places = [(0, 0, 0, 0), (2, 6, 4, 3), (1, 3, 1, 2)]
    cases = [(4 * p + o, x, y, lay.place(p, x, y, o)) for p, x, y, o in places]
    cases += [(4 * p_n, 2, 3, lay.path(2, 3)), (4 * p_n + 1, 6, 0, lay.cut(6, 0))]
    cases += [(4 * p_n + 2 + 1, 1, 4, lay.plant(1, 1, 4))]
    for channel, x, y, want in cases:
        tiles = torch.zeros(2, ch, h, w)
        tiles[1, channel, y, x] = 5.0
        flat = ppo.flat_logits(tiles, torch.tensor([1.0, 1.0]), p_n, c_n)
        assert flat.shape == (2, lay.n)
        assert int(flat[1].argmax()) == want, (channel, x, y)
        assert lay.decode(want).x == x and lay.decode(want).y == y
        assert int(flat[0].argmax()) == 0  # the wait's own logit
    # Every tile channel is a permutation of the flat actions after the wait.
    tiles = torch.arange(ch * h * w, dtype=torch.float32).reshape(1, ch, h, w)
    flat = ppo.flat_logits(tiles, torch.tensor([-1.0]), p_n, c_n)[0, 1:]
    assert sorted(flat.tolist()) == list(range(ch * h * w))


def test_the_policy_draws_only_what_the_mask_allows() -> None:
    env = cg.make_vector(2, backend="engine", map_size=32, turn_hours=24)
    try:
        obs, info = env.reset(seed=3)
        s = ppo.Config(map_size="32").settings()
        policy = ppo.Policy(len(s.prefabs), len(s.crops))
        mask = torch.as_tensor(info["action_mask"] != 0)
        with torch.no_grad():
            logits, values = policy(ppo.map_features(obs), ppo.colony_features(obs["colony"]), mask)
        assert logits.shape == mask.shape and values.shape == (2,)
        assert torch.all(logits[~mask] == ppo.MASKED)
        # A near-uniform policy puts about half its mass on the wait whatever the mask's size.
        p_wait = torch.softmax(logits, 1)[:, 0]
        assert torch.all((p_wait > 0.3) & (p_wait < 0.7)), p_wait
        gen = torch.Generator().manual_seed(1)
        drawn = torch.cat([ppo.sample(logits, gen) for _ in range(200)])
        rows = torch.arange(2).repeat(200)
        assert bool(mask[rows, drawn].all())
        assert len(set(drawn.tolist())) > 100  # not stuck on one action
    finally:
        env.close()


def test_map_features_centre_on_the_district_center() -> None:
    env = cg.make_vector(1, backend="engine", map_size=32, turn_hours=24)
    try:
        obs, _ = env.reset(seed=5)
    finally:
        env.close()
    x = ppo.map_features(obs)
    assert x.shape == (1, ppo.MAP_CHANNELS, 32, 32)
    assert torch.isfinite(x).all() and x.abs().max() <= 2
    dc = np.argwhere(obs["buildings"][0] == 1)
    assert dc.size, "the game starts with a district center"
    cy, cx = dc.mean(0)
    dist = x[0, -1].numpy()
    y0, x0 = np.unravel_index(dist.argmin(), dist.shape)
    assert abs(y0 - cy) <= 1 and abs(x0 - cx) <= 1


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A smoke run: 2,048 steps on the 32 map."""
    d = tmp_path_factory.mktemp("ppo")
    args = ppo.Args(
        total_steps=2048,
        envs=4,
        rollout=16,
        seed=500,
        threads=1,
        checkpoint=str(d / "ppo.pt"),
        curve=str(d / "curve.csv"),
        config=ppo.Config(map_size="32"),
    )
    out = ppo.train(args, log=lambda line: None)
    return {"args": args, "out": out, "dir": d}


def test_a_smoke_run_trains_and_writes_its_checkpoint_and_curve(trained: dict) -> None:
    args, out = trained["args"], trained["out"]
    # Steps count the actions taken: 2,048 less the autoreset steps, one after each episode that
    # ended before the run's last step (at most one per environment ended on it).
    ended = len(out["episodes"])
    assert 2048 - ended <= out["steps"] <= 2048 - ended + 4, (out["steps"], ended)
    assert len(out["updates"]) == math.ceil(2048 / (4 * 16))
    for row in out["updates"]:
        assert all(math.isfinite(row[k]) for k in ("pg", "vf", "ent", "kl")), row
    # Episodes end on this map inside 2,048 steps (colonies left to chance die of thirst), each
    # with a score in 0-100.
    assert out["episodes"], "no episode finished"
    assert all(0 <= score <= 100 and day >= 1 for _, score, day in out["episodes"])
    rows = Path(args.curve).read_text().splitlines()
    assert rows[0] == "steps,score,day" and len(rows) == 1 + len(out["episodes"])
    assert Path(args.curve).with_name("curve-updates.csv").exists()
    policy, cfg = ppo.load_checkpoint(args.checkpoint)
    assert cfg.map_size == "32" and cfg.actions_per_turn == 8
    # The trained weights differ from a fresh policy's, and load into the same outputs.
    fresh = ppo.make_policy(cfg)
    assert any(
        not torch.equal(a, b)
        for a, b in zip(policy.state_dict().values(), fresh.state_dict().values(), strict=True)
    )


SCENARIO = """
id = "ppo-smoke"
title = "PPO smoke"
goal = "Survive."
horizon_days = {days}
turn_hours = 24

[game]
faction = "Folktails"
mode = "Normal"
map = 32
seeds = [{seed}]

[[score]]
metric = "days_survived"
weight = 4
target = {days}

[[score]]
metric = "beavers"
weight = 2
target = 30

[[score]]
metric = "wellbeing"
weight = 1
target = 8
survival_scaled = true

[[score]]
metric = "deaths_premature"
weight = 0.5
target = 12
lower_is_better = true
survival_scaled = true

[[score]]
metric = "buildings_built"
weight = 0.5
target = 20
"""


def play_in_gym(checkpoint: str, seed: int, days: int, episode: str) -> tuple[float, str, int]:
    """The policy's game in ``Colony-v0`` (engine), drawing each action as ``agents/ppo.py``
    does (seeded by episode, turn and action): score, state hash and actions taken."""
    policy, cfg = ppo.load_checkpoint(checkpoint)
    env = cg.ColonyEnv(
        backend="engine", map_size=32, turn_hours=24, horizon_days=days, actions_per_turn=8
    )
    obs, info = env.reset(seed=seed)
    turn, i, acted, done = 1, 0, 0, False
    while not done:
        gen = torch.Generator().manual_seed(zlib.crc32(f"{episode}:{turn}:{i}".encode()))
        a = ppo.choose(policy, obs, info["action_mask"], False, gen)
        obs, _, terminated, truncated, info = env.step(a)
        assert info["error"] is None, info["error"]
        acted += a != 0
        i += 1
        if a == 0 or i == cfg.actions_per_turn:
            turn, i = turn + 1, 0
        done = terminated or truncated
    return float(info["score"]), env.state_hash(), acted


def test_the_agent_plays_the_policys_game_under_colony_eval(
    trained: dict, tmp_path: Path, colony_bin: str
) -> None:
    days, seed = 4, 11
    f = tmp_path / "ppo-smoke.toml"
    f.write_text(SCENARIO.format(days=days, seed=seed))
    checkpoint = trained["args"].checkpoint
    agent = f"{sys.executable} -I {REPO / 'agents' / 'ppo.py'} --checkpoint {checkpoint}"
    out = tmp_path / "out"
    subprocess.run(
        [colony_bin, "eval", "--scenario", str(f), "--agent", agent + " --persistent"]
        + ["--agent-mode", "persistent", "--out", str(out), "--quiet"]
        + ["--colonyd", os.environ["COLONYD"]],
        check=True,
    )
    (ep,) = json.loads((out / "results.json").read_text())["episodes"]
    assert ep["status"] == "ok" and ep["agentFailures"] == 0, ep
    log = (out / "episodes" / ep["id"] / "agent.log").read_text()
    assert "refused" not in log, log  # a masked action is never refused
    score, state_hash, acted = play_in_gym(checkpoint, seed, days, ep["id"])
    assert acted > 0, "the policy never acted: the comparison would prove little"
    assert ep["score"] == pytest.approx(score, abs=1e-3), log
    turns = [
        json.loads(line)
        for line in (out / "episodes" / ep["id"] / "trajectory.jsonl").read_text().splitlines()
    ]
    hashes = [t["stateHash"] for t in turns if t.get("stateHash")]
    assert hashes and hashes[-1] == state_hash
