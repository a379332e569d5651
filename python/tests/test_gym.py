"""``Colony-v0`` against real colonyd processes: Gymnasium's own checker, masked random steps that
the service never refuses, determinism of ``reset(seed)``, the vector environment."""

from __future__ import annotations

from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import colony.gym  # noqa: F401  (registers Colony-v0)
from colony.gym import ColonyEnv, make_vector

SMALL = {"map_size": 32, "turn_hours": 3, "horizon_days": 30}


@pytest.fixture
def env() -> Iterator[ColonyEnv]:
    e = ColonyEnv(**SMALL)
    yield e
    e.close()


def test_registered_and_passes_check_env() -> None:
    e = gym.make("Colony-v0", **SMALL)
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
        # Half the steps place a building when the mask offers one, so placements are tried.
        placeable = np.flatnonzero(mask[env.layout.place0 : env.layout.path0])
        if placeable.size and rng.random() < 0.5:
            action = env.layout.place0 + int(rng.choice(placeable))
        else:
            action = int(env.action_space.sample(mask=mask))
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["error"] is None, (info["action"], info["error"])
        kinds[info["action"]] = kinds.get(info["action"], 0) + 1
        total += reward
        if terminated or truncated:
            obs, info = env.reset(seed=6)
    assert kinds.get("place", 0) >= 20
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


def test_an_idle_colony_dies_and_the_episode_terminates() -> None:
    e = ColonyEnv(map_size=32, turn_hours=24, horizon_days=30)
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


def test_vector_env_over_several_processes() -> None:
    venv = make_vector(2, **SMALL)
    try:
        obs, info = venv.reset(seed=[3, 4])
        assert obs["terrain"].shape == (2, 32, 32)
        masks = info["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[-1]) for m in masks])
        obs, rewards, term, trunc, info = venv.step(actions)
        assert rewards.shape == (2,) and not any(info["error"])
    finally:
        venv.close()
