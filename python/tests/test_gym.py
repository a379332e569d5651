"""``Colony-v0`` on both backends (the in-process engine and real colonyd processes): Gymnasium's
own checker, masked random steps that the game never refuses, determinism of ``reset(seed)``, the
vector environments, the rewards of an episode against ``colony eval``'s score of the same game;
over HTTP, the map layers against a plain per-tile walk of the same tiles, and the environment's
lean client against the httpx one. tests/test_engine.py holds the two backends together."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import colony
import colony.gym  # noqa: F401  (registers Colony-v0)
from colony.gym import ColonyEnv, ScoreTerm, make_vector
from colony.gym._client import StepClient
from colony.gym.observe import (
    BUSHES,
    CODE_LAYERS,
    MAX_Z,
    PLANT_DEAD,
    PLANT_SEEDLING,
    ROLE_CODE,
    TREES,
    Observer,
)
from colony.gym.reward import score, survive_terms
from colony.spawn import free_port

SMALL = {"map_size": 32, "turn_hours": 3, "horizon_days": 30}


BACKENDS = ["engine", "http"]


@pytest.fixture(params=BACKENDS)
def env(request: pytest.FixtureRequest) -> Iterator[ColonyEnv]:
    e = ColonyEnv(backend=request.param, **SMALL)
    yield e
    e.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_registered_and_passes_check_env(backend: str) -> None:
    e = gym.make("Colony-v0", backend=backend, **SMALL)
    try:
        check_env(e.unwrapped, skip_render_check=False)
    finally:
        e.close()


def test_hundred_masked_random_steps_never_get_a_service_error(env: ColonyEnv) -> None:
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    kinds: dict[str, int] = {}
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(100):
        mask = info["action_mask"]
        assert mask.shape == (env.action_space.n,) and mask[0] == 1
        # A kind at random (the wait, placing, paths, cutting, planting), then an action of it
        # the mask allows, so every kind is tried.
        lay = env.layout
        segments = [(0, 1), (lay.place0, lay.path0), (lay.path0, lay.cut0)]
        segments += [(lay.cut0, lay.plant0), (lay.plant0, lay.n)]
        start, end = segments[int(rng.integers(len(segments)))]
        allowed = np.flatnonzero(mask[start:end])
        action = start + int(rng.choice(allowed)) if allowed.size else 0
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["error"] is None, (info["action"], info["error"])
        kinds[info["action"]] = kinds.get(info["action"], 0) + 1
        total += reward
        if terminated or truncated:
            obs, info = env.reset(seed=6)
    assert kinds.get("place", 0) >= 10
    assert {"place", "path", "cut", "plant"} <= set(kinds)
    assert env.observation_space.contains(obs)


def test_unmasked_actions_are_refused_without_crashing(env: ColonyEnv) -> None:
    obs, info = env.reset(seed=5)
    ys, xs = np.nonzero(obs["trees"])
    lodge = env.prefabs.index("Lodge.Folktails")
    action = env.layout.place(lodge, int(xs[0]), int(ys[0]), 0)
    assert info["action_mask"][action] == 0
    _, _, _, _, info = env.step(action)
    assert info["action"] == "place"
    assert (info["error"]["code"], info["error"]["reason"]) == ("placement", "occupied")
    _, _, _, _, info = env.step(env.action_space.n + 5)
    assert (info["action"], info["error"]["code"]) == ("invalid", "invalid_action")


def test_reset_with_a_seed_is_deterministic(env: ColonyEnv) -> None:
    def episode(seed: int) -> list[np.ndarray]:
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        seen = [obs["colony"].copy(), obs["trees"].copy(), info["action_mask"].copy()]
        for _ in range(5):
            mask = info["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, *_, info = env.step(action)
            seen += [obs["colony"].copy(), obs["buildings"].copy(), np.float64(reward)]
        return seen

    a, b, c = episode(11), episode(11), episode(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_idle_colony_dies_and_the_episode_terminates(backend: str) -> None:
    e = ColonyEnv(map_size=32, turn_hours=24, horizon_days=30, backend=backend)
    try:
        obs, info = e.reset(seed=2)
        first = info["score"] / 100
        rewards, terminated, truncated = [], False, False
        while not (terminated or truncated):
            obs, r, terminated, truncated, info = e.step(0)
            rewards.append(r)
        # Without water the colony dies of thirst within about a week.
        assert terminated and not truncated and len(rewards) < 12
        assert obs["colony"][-1] == 1.0  # game_over
        assert info["score"] == pytest.approx(100 * (sum(rewards) + first), abs=1e-2)
    finally:
        e.close()


def scenario_toml(
    terms: Sequence[ScoreTerm], horizon_days: float, turn_hours: float, seed: int, size: int
) -> str:
    """A scenario of ``colony eval`` with the game ``ColonyEnv(map_size=size)`` plays (Folktails,
    Normal) and these terms."""
    text = f"""id = "gym-reward"
title = "The Gym's game"
goal = "Live."
horizon_days = {horizon_days}
turn_hours = {turn_hours}

[game]
faction = "Folktails"
mode = "Normal"
map = "{size}x{size}"
seeds = [{seed}]
"""
    for t in terms:
        text += f"""
[[score]]
metric = "{t.metric}"
weight = {float(t.weight)}
target = {float(t.target)}
lower_is_better = {str(t.lower_is_better).lower()}
survival_scaled = {str(t.survival_scaled).lower()}
"""
    return text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("horizon", "turn_hours"), [(10, 12), (3, 10)], ids=["dies", "lives"])
def test_idle_rewards_sum_to_the_score_colony_eval_gives_the_same_game(
    tmp_path: Path, colony_bin: str, horizon: int, turn_hours: int, backend: str
) -> None:
    """An idle Gym episode (action 0 every step) and ``colony eval`` with the idle agent, on the
    same seed, game, terms, horizon and turn length: the same game, so the rewards (and the first
    observation's score) add up to the episode's score in results.json. Over 10 days the colony
    dies of thirst (about day 6), ending both early; over 3 it lives to the horizon (a shorter
    last turn of 2 hours), which both must reach at the same hour."""
    seed, size = 3, 32
    # survive-60's terms, a survival-scaled one the dying colony still earns part of, and one
    # of the finished buildings.
    terms = [
        *survive_terms(horizon),
        ScoreTerm("deaths_premature", 1, 40, lower_is_better=True, survival_scaled=True),
        ScoreTerm("built.DistrictCenter", 1, 1),
    ]
    e = ColonyEnv(
        map_size=size,
        turn_hours=turn_hours,
        horizon_days=horizon,
        score_terms=terms,
        backend=backend,
    )
    try:
        _, info = e.reset(seed=seed)
        first = info["score"] / 100
        rewards, terminated, truncated = [], False, False
        while not (terminated or truncated):
            _, r, terminated, truncated, info = e.step(0)
            assert info["error"] is None
            rewards.append(r)
        final = score(e.client, terms, horizon) if backend == "http" else None
    finally:
        e.close()
    scenario = tmp_path / "gym-reward.toml"
    scenario.write_text(scenario_toml(terms, horizon, turn_hours, seed, size))
    agent = f"{sys.executable} {Path(__file__).resolve().parents[2] / 'agents' / 'idle.py'}"
    out = tmp_path / "eval"
    subprocess.run(
        [colony_bin, "eval", "--scenario", str(scenario), "--agent", agent, "--out", str(out)]
        + ["--quiet", "--colonyd", os.environ["COLONYD"]],
        check=True,
    )
    [episode] = json.loads((out / "results.json").read_text())["episodes"]
    assert episode["status"] == "ok" and episode["seed"] == seed
    # The same game, played as far: the colony died in the same turn of both, or both reached
    # the horizon.
    dies = horizon == 10
    assert (terminated, truncated, episode["gameOver"]) == (dies, not dies, dies), episode
    assert len(rewards) == episode["turns"]
    assert 0 < episode["score"] < 100
    assert sum(rewards) + first == pytest.approx(episode["score"] / 100, rel=1e-3)
    assert info["score"] == pytest.approx(episode["score"], abs=1e-9)
    # Term by term: each metric's value over the same rows (days survived to the same hour).
    if final is not None:
        assert final["terms"] == episode["scoreTerms"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unknown_score_term_is_refused(backend: str) -> None:
    """Over HTTP on the first reset (``POST /api/score`` refuses it); the engine checks the
    terms when the environment is made."""
    made: list[ColonyEnv] = []
    with pytest.raises(colony.ColonyError) as err:
        made.append(
            ColonyEnv(map_size=32, score_terms=[ScoreTerm("happiness", 1, 8)], backend=backend)
        )
        made[0].reset(seed=1)
    for e in made:
        e.close()
    assert err.value.code == "invalid_param"
    assert "unknown metric" in err.value.detail and "days_survived" in err.value.detail


@pytest.mark.parametrize("backend", BACKENDS)
def test_vector_env(backend: str) -> None:
    venv = make_vector(2, backend=backend, **SMALL)
    try:
        obs, info = venv.reset(seed=[3, 4])
        assert obs["terrain"].shape == (2, 32, 32)
        masks = info["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[-1]) for m in masks])
        obs, rewards, term, trunc, info = venv.step(actions)
        assert rewards.shape == (2,) and not any(info["error"])
    finally:
        venv.close()


def per_tile_layers(observer: Observer, tiles: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The map layers as the environment first built them: each tile written in turn (the
    reference the column-wise ``Observer.layers`` must equal bit for bit)."""
    shape = (observer.height, observer.width)
    layers = {k: np.zeros(shape, np.uint8) for k in CODE_LAYERS}
    water = np.zeros(shape, np.float32)
    bad = np.zeros(shape, np.float32)
    for t in tiles:
        x, y = t["x"], t["y"]
        layers["terrain"][y, x] = t["terrain"]
        water[y, x] = min(t["water"], MAX_Z)
        if "badwater" in t:
            bad[y, x] = t["badwater"]
        if t.get("moist"):
            layers["moisture"][y, x] = 1
        if t.get("contaminated"):
            layers["contaminated"][y, x] = 1
        if t.get("entrance"):
            layers["entrances"][y, x] = 1
        plant = PLANT_DEAD if t.get("dead") else PLANT_SEEDLING if t.get("seedling") else 2
        for o in t.get("occupants") or []:
            name = o["name"]
            if name == "Path":
                layers["paths"][y, x] = 1
            elif "." in name:
                role = observer._role(name)
                if role == "paths":
                    layers["paths"][y, x] = 2
                else:
                    layers["buildings"][y, x] = ROLE_CODE[role]
            elif name in TREES:
                layers["trees"][y, x] = plant
            elif name in BUSHES:
                layers["bushes"][y, x] = plant
            elif not name.startswith("Ruin"):
                layers["crops"][y, x] = plant
    return {**layers, "water": water, "badwater": bad}


def assert_same_layers(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    assert list(got) == list(want)
    for k, a in want.items():
        g = got[k]
        assert (g.dtype, g.shape, g.flags.c_contiguous) == (a.dtype, a.shape, True), k
        assert g.tobytes() == a.tobytes(), k


def test_observed_layers_are_a_per_tile_walk_of_the_same_tiles() -> None:
    e = ColonyEnv(map_size=32, turn_hours=6, horizon_days=30, backend="http")
    try:
        obs, info = e.reset(seed=4)
        rng = np.random.default_rng(3)
        covered: set[str] = set()
        lay = e.layout
        place, path = (lay.place0, lay.path0), (lay.path0, lay.cut0)
        kinds = [path, place, (lay.cut0, lay.plant0), place, (lay.plant0, lay.n), place]
        for step in range(16):
            # The game stays paused between steps: these are the tiles the observation was
            # built from.
            tiles = e.client.tiles(x1=0, y1=0, x2=31, y2=31)["tiles"]
            want = per_tile_layers(e._game._observer, tiles)  # type: ignore[attr-defined]
            # (Sites come from the building list, not the tiles: tests/test_engine.py checks
            # them against the engine's, which reads the world's blocks.)
            layers = {k: v for k, v in obs.items() if k != "colony"}
            assert_same_layers(layers, {**want, "sites": layers["sites"]})
            shuffled = random.Random(step).sample(tiles, len(tiles))
            assert_same_layers(e._game._observer.layers(shuffled), want)
            covered |= {k for k, a in want.items() if a.any()}
            # Every kind of action in turn, placements most.
            lo, hi = kinds[step % len(kinds)]
            allowed = np.flatnonzero(info["action_mask"][lo:hi])
            action = lo + int(rng.choice(allowed)) if allowed.size else 0
            door = e._game._observer.dc_entrance()
            if (lo, hi) == path and allowed.size and door:
                # A short path out of the district center's door on its level (a far one, or one
                # up a cliff, may find no route).
                ys, xs = np.divmod(allowed, e.width)
                far = abs(abs(xs - door[0]) + abs(ys - door[1]) - 6)
                level = obs["terrain"][ys, xs] == obs["terrain"][door[1], door[0]]
                action = lo + int(allowed[np.argmin(far + 100 * ~level)])
            obs, _, terminated, truncated, info = e.step(action)
            assert info["error"] is None and not (terminated or truncated)
        assert {"terrain", "water", "moisture", "trees", "bushes", "buildings", "paths"} <= covered
    finally:
        e.close()


class _Roles:
    """A stand-in client for ``Observer``: building roles as ``GET /api/buildings`` gives them."""

    ROLES = {
        "Lodge.Folktails": "housing",
        "Stairs.Folktails": "paths",
        "Platform.Folktails": "paths",
        "WaterPump.Folktails": "water",
        "Lever.Folktails": "automation",
    }

    def buildings(self, *, name: str, detail: str, limit: int) -> list[dict[str, Any]]:
        return [{"name": name, "role": self.ROLES[name]}] if name in self.ROLES else []


def test_layers_of_crafted_tiles_match_the_per_tile_walk() -> None:
    """Every member and occupant case (several occupants on one tile, the last on a layer
    winning; water deeper than the cap; unknown roles; ruins; tiles out of order)."""

    def tile(x: int, y: int, **more: Any) -> dict[str, Any]:
        return {"x": x, "y": y, "terrain": (3 * x + y) % 23, "water": 0.0, **more}

    def occ(*names: str) -> list[dict[str, Any]]:
        return [{"name": n, "z": 4} for n in names]

    tiles = [tile(x, y) for y in range(3) for x in range(5)]
    more: list[dict[str, Any]] = [
        {"water": 31.5, "badwater": 0.123, "contaminated": True},
        {"water": 2, "moist": True, "occupants": occ("Carrot"), "seedling": True},
        {"occupants": occ("Oak"), "dead": True, "seedling": True},
        {"occupants": occ("BlueberryBush"), "moist": True},
        {"occupants": occ("Path", "Lodge.Folktails"), "entrance": True},
        {"occupants": occ("Platform.Folktails", "Stairs.Folktails", "Path")},
        {"occupants": occ("Lodge.Folktails", "WaterPump.Folktails")},
        {"occupants": occ("Lever.Folktails"), "badwater": 1.0},
        {"occupants": occ("Mystery.Folktails")},
        {"occupants": occ("RuinColumn")},
        {"occupants": occ("Pine", "Carrot"), "seedling": True},
        {"water": 0.3339, "badwater": 0.5, "occupants": []},
        {"entrance": True},
        {"water": 30.0, "moist": False, "contaminated": False},
        {},
    ]
    for t, m in zip(tiles, more, strict=True):
        t.update(m)
    shuffled = random.Random(1).sample(tiles, len(tiles))
    got = Observer(_Roles(), 5, 3).layers(shuffled)  # type: ignore[arg-type]
    assert_same_layers(got, per_tile_layers(Observer(_Roles(), 5, 3), tiles))  # type: ignore[arg-type]
    assert (got["water"][0, 0], got["badwater"][0, 0]) == (np.float32(MAX_Z), np.float32(0.123))
    assert (got["paths"][0, 4], got["buildings"][0, 4]) == (1, ROLE_CODE["housing"])
    assert (got["paths"][1, 0], got["buildings"][1, 1]) == (1, ROLE_CODE["water"])
    assert got["buildings"][1, 2] == got["buildings"][1, 3] == ROLE_CODE["others"]
    assert (got["trees"][0, 2], got["trees"][2, 0], got["crops"][2, 0]) == (PLANT_DEAD, 1, 1)


def test_the_step_client_answers_as_the_httpx_client() -> None:
    with colony.spawn(seed=7, map=32, settings={"httpIdleSeconds": 1}) as g:
        plain = g.client()
        lean = StepClient("127.0.0.1", g.http_port, g.token, ws_port=g.ws_port)
        try:
            assert lean._lean
            plain.set_speed(speed=0)
            reads: list[Callable[[colony.Colony], Any]] = [
                lambda c: c.tiles(x1=0, y1=0, x2=31, y2=31),
                lambda c: c.summary(),
                lambda c: c.stats(from_=1),
                lambda c: c.prefabs(),
                lambda c: c.buildings(detail="full", limit=0),
                lambda c: c.placement_find(prefab="Lodge.Folktails", x1=0, y1=0, x2=31, y2=31),
            ]
            for read in reads:
                assert read(lean) == read(plain)
            for bad in (
                lambda c: c.placement_find(prefab="Nope.Folktails", x1=0, y1=0, x2=9, y2=9),
                lambda c: c.tiles(x1=0, y1=0, x2=-5, y2=-5),
                lambda c: c.building_place(prefab="Lodge.Folktails", x=0, y=0, z=0, orientation=9),
            ):
                errors = []
                for c in (lean, plain):
                    with pytest.raises(colony.ColonyError) as e:
                        bad(c)
                    errors.append((e.value.code, e.value.detail, e.value.extras, e.value.status))
                assert errors[0] == errors[1]
            # The service closes a connection idle for httpIdleSeconds: the next request opens
            # a new one.
            time.sleep(1.5)
            assert lean.time() == plain.time()
            with (
                StepClient("127.0.0.1", g.http_port, format=None) as toon,
                g.client(format=None) as toon_plain,
            ):
                assert toon.summary() == toon_plain.summary()
        finally:
            lean.close()
            plain.close()
    with pytest.raises(colony.ColonyError) as e:
        StepClient("127.0.0.1", free_port()).ping()
    assert e.value.code == "unreachable"


def test_sample_masked_draws_only_allowed_actions_each_as_often() -> None:
    from colony.gym import sample_masked

    rng = np.random.default_rng(7)
    # Dense (rejection answers) and sparse (the listing answers after the misses).
    for size, allowed in ((10, [0, 3, 5, 8, 9]), (100_000, [1, 90_000])):
        mask = np.zeros(size, dtype=np.int8)
        mask[allowed] = 1
        draws = [sample_masked(mask, rng) for _ in range(4000)]
        counts = {a: draws.count(a) for a in allowed}
        assert set(draws) == set(allowed)
        expected = 4000 / len(allowed)
        assert all(abs(c - expected) < 0.15 * expected for c in counts.values()), counts
    dense = np.ones(10, dtype=np.int8)
    dense[4] = 0
    assert 4 not in {sample_masked(dense, rng) for _ in range(500)}
    with pytest.raises(ValueError):
        sample_masked(np.zeros(10, dtype=np.int8), rng)
