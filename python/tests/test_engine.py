"""The in-process engine (``colony.engine``, ``backend="engine"``) against colonyd: the same seed
and actions give the same observations, masks, rewards, refusals and state hashes on both
backends; the same seed and actions give the same game after 60 days; the world's commands
refuse as the routes do; the vector environment steps each world as one environment does; a reset
without a seed plays np_random's seed, its game made ahead."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils import seeding

import colony
from colony.engine import World
from colony.gym import ColonyEnv, ScoreTerm, make_vector
from colony.gym.reward import score, survive_terms


def same_step(a: tuple[Any, ...], b: tuple[Any, ...], where: str) -> None:
    """Two backends' step answers (obs, reward, terminated, truncated, info) are equal."""
    (oa, ra, ta, tra, ia), (ob, rb, tb, trb, ib) = a, b
    assert list(oa) == list(ob), where
    for k in oa:
        assert oa[k].dtype == ob[k].dtype and np.array_equal(oa[k], ob[k]), f"{where}: {k}"
    assert (ra, ta, tra) == (rb, tb, trb), where
    assert np.array_equal(ia["action_mask"], ib["action_mask"]), where
    for key in ("score", "day", "action", "error"):
        assert ia.get(key) == ib.get(key), f"{where}: {key}"


@pytest.mark.parametrize("seed", [5, 8])
def test_both_backends_play_the_same_game(seed: int) -> None:
    kw: dict[str, Any] = {"map_size": 32, "turn_hours": 6, "horizon_days": 12}
    engine, http = ColonyEnv(backend="engine", **kw), ColonyEnv(backend="http", **kw)
    try:
        oa, ia = engine.reset(seed=seed)
        ob, ib = http.reset(seed=seed)
        same_step((oa, 0.0, False, False, ia), (ob, 0.0, False, False, ib), "reset")
        assert engine.state_hash() == http.state_hash()
        rng = np.random.default_rng(seed)
        lay = engine.layout
        kinds: set[str] = set()
        segments = [(lay.place0, lay.path0), (lay.path0, lay.cut0), (lay.cut0, lay.plant0)]
        segments.append((lay.plant0, lay.n))
        for t in range(48):
            mask = ia["action_mask"]
            if t % 11 == 3:
                # An action the mask refuses, and one outside the space: the same refusals.
                action = int(np.flatnonzero(mask[: lay.path0] == 0)[-1])
            elif t % 11 == 7:
                action = lay.n + 3
            else:
                # A kind at random, then an action of it the mask allows.
                start, end = segments[int(rng.integers(len(segments)))]
                allowed = np.flatnonzero(mask[start:end])
                action = start + int(rng.choice(allowed)) if allowed.size else 0
            a, b = engine.step(action), http.step(action)
            same_step(a, b, f"step {t}")
            assert engine.state_hash() == http.state_hash(), f"step {t}"
            ia = a[4]
            kinds.add(ia["action"])
            if a[2] or a[3]:
                break
        assert {"place", "path", "cut", "plant", "invalid"} <= kinds
    finally:
        engine.close()
        http.close()


def test_the_same_seed_and_actions_give_the_same_game_after_60_days() -> None:
    def play(seed: int) -> str:
        e = ColonyEnv(map_size=32, turn_hours=24, horizon_days=60, backend="engine")
        _, info = e.reset(seed=seed)
        rng = np.random.default_rng(7)
        done = False
        while not done:
            _, _, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = term or trunc
        return e.state_hash()

    assert play(21) == play(21)
    assert play(21) != play(22)


def test_a_reset_without_a_seed_plays_np_random_s_seed_with_its_game_made_ahead() -> None:
    """Each reset makes the game of the seed the next reset without a seed draws ahead; that
    draw is made on a copy, so the seeds played are np_random's, as Gymnasium defines them, and
    the game is that seed's: colonyd's new game of it (another engine environment would copy the
    same kept game, so it is checked against the HTTP backend)."""
    e, http = ColonyEnv(map_size=32, backend="engine"), ColonyEnv(map_size=32, backend="http")
    try:
        _, info = e.reset(seed=3)
        assert info["seed"] == 3
        rng, _ = seeding.np_random(3)
        for _ in range(3):
            _, info = e.reset()
            assert info["seed"] == int(rng.integers(0, 2**31 - 1))
            http.reset(seed=info["seed"])
            assert e.state_hash() == http.state_hash()
        _, info = e.reset(seed=3)
        rng, _ = seeding.np_random(3)
        assert e.reset()[1]["seed"] == int(rng.integers(0, 2**31 - 1))
    finally:
        e.close()
        http.close()


def test_the_world_commands_act_and_refuse_as_the_routes_do(game: colony.Game) -> None:
    w = World(4, width=48, height=48)
    w.set_speed(0)
    with game.client() as c:
        c.game_new(seed=4, map="48x48")
        c.ready(ready=True)
        c.set_speed(speed=0)
        assert c.game_hash()["stateHash"] == w.state_hash()
        # The same commands, the same game.
        mask = w.placement_mask("Lodge.Folktails")
        y, x, o = (int(v[len(v) // 2]) for v in np.nonzero(mask))
        where = {"x": x, "y": y, "z": int(mask[y, x, o]) - 1}
        facing = ["south", "west", "north", "east"][o]
        w.place("Lodge.Folktails", where["x"], where["y"], where["z"], facing)
        c.building_place(prefab="Lodge.Folktails", orientation=facing, **where)
        door = c.summary()["districts"][0]["dc"]
        w.path(door["entranceX"], door["entranceY"], x, y)
        c.path_place(x1=door["entranceX"], y1=door["entranceY"], x2=x, y2=y)
        w.cutting_area(0, 0, 20, 20, where["z"])
        c.cutting_area(x1=0, y1=0, x2=20, y2=20, z=where["z"], marked=True)
        w.advance(30)
        c.game_advance(hours=30)
        assert c.game_hash()["stateHash"] == w.state_hash()
        # The same score, by the same code.
        terms = [*survive_terms(10), ScoreTerm("built.Lodge", 1, 2)]
        assert w.score(terms, 10) == score(c, terms, 10)["score"]
        # The same refusals.
        for call, route in [
            (
                lambda: w.place("Castle.Folktails", 1, 1, 1, "south"),
                lambda: c.building_place(
                    prefab="Castle.Folktails", x=1, y=1, z=1, orientation="south"
                ),
            ),
            (lambda: w.demolish(123), lambda: c.building_demolish(id=123)),
            (
                lambda: w.cutting_area(0, 0, 3, 3, 99),
                lambda: c.cutting_area(x1=0, y1=0, x2=3, y2=3, z=99, marked=True),
            ),
            (
                lambda: w.planting_mark(0, 0, 3, 3, 1, "Tulip"),
                lambda: c.planting_mark(x1=0, y1=0, x2=3, y2=3, z=1, crop="Tulip"),
            ),
            (lambda: w.place("Lodge.Folktails", x, y, where["z"], facing), lambda: None),
        ]:
            with pytest.raises(colony.ColonyError) as mine:
                call()
            try:
                route()
            except colony.ColonyError as theirs:
                assert (mine.value.code, mine.value.detail) == (theirs.code, theirs.detail)
            else:
                assert mine.value.code == "placement" and mine.value.extras["reason"] == "occupied"
        assert c.game_hash()["stateHash"] == w.state_hash()
    with pytest.raises(colony.ColonyError) as err:
        w.advance(-1)
    assert err.value.code == "invalid_param"


def test_saves_round_trip_and_the_hash_is_colonyd_s(game: colony.Game, tmp_path: Any) -> None:
    w = World(9, width=40, height=40)
    w.advance(30)
    copy = World.load(w.save())
    assert copy.state_hash() == w.state_hash() and copy.ticks == w.ticks
    copy.advance(5)
    w.advance(5)
    assert copy.state_hash() == w.state_hash()
    # colonyd loads the engine's save and hashes it the same.
    saves = game.data_dir / "saves"
    saves.mkdir(exist_ok=True)
    (saves / "engine.colony.json").write_bytes(w.save())
    with game.client() as c:
        c.game_load(name="engine")
        c.ready(ready=True)
        assert c.game_hash()["stateHash"] == w.state_hash()


def test_the_vector_environment_steps_each_world_as_one_environment() -> None:
    kw: dict[str, Any] = {
        "map_size": 32,
        "turn_hours": 24,
        "horizon_days": 3,
        "actions_per_turn": 1,
    }
    venv = make_vector(3, backend="engine", threads=2, **kw)
    singles = [ColonyEnv(backend="engine", **kw) for _ in range(3)]
    try:
        obs, info = venv.reset(seed=30)
        for i, e in enumerate(singles):
            o, _ = e.reset(seed=30 + i)
            assert all(np.array_equal(obs[k][i], o[k]) for k in o)
        rng = np.random.default_rng(0)
        resets = [0, 0, 0]
        for t in range(8):
            actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]])
            obs, rewards, term, trunc, info = venv.step(actions)
            for i, e in enumerate(singles):
                if info["action"][i] == "reset":
                    # The k-th automatic reset plays seed + i + k * n.
                    resets[i] += 1
                    o, _ = e.reset(seed=30 + i + 3 * resets[i])
                    assert rewards[i] == 0 and not term[i] and not trunc[i]
                else:
                    o, r, te, tr, inf = e.step(int(actions[i]))
                    assert (rewards[i], term[i], trunc[i]) == (r, te, tr), f"{i} step {t}"
                    assert inf["error"] == info["error"][i]
                assert all(np.array_equal(obs[k][i], o[k]) for k in o), f"{i} step {t}"
            assert venv.state_hashes() == [e.state_hash() for e in singles]
        assert resets == [2, 2, 2], "each world reached the 3-day horizon twice and was reset"
        assert venv.observation_space.contains(obs)
    finally:
        venv.close()
        for e in singles:
            e.close()


def test_the_food_goods_are_the_engine_s() -> None:
    import colony_engine

    from colony.gym.observe import FOOD_GOODS

    assert set(colony_engine.FOODS) == FOOD_GOODS
