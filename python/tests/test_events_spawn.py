"""The WebSocket events iterator (across a colonyd restart) and spawning games at once."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import colony
from colony import Event, State


def test_events_are_typed_and_survive_a_restart(game: colony.Game) -> None:
    c = game.client()
    stream = c.events("speed.", include_state=True, idle_timeout=60)
    frames = iter(stream)
    first = next(frames)
    assert isinstance(first, State) and "epoch" in first.data
    c.set_speed(speed=2)
    ev = next(frames)
    assert isinstance(ev, Event)
    assert (ev.name, ev.data["speed"]) == ("speed.changed", 2)
    assert ev.day == 1
    game.restart()  # same ports, a new process
    again = next(frames)
    assert isinstance(again, State), "the first frame after reconnecting is the state"
    assert stream.reconnects == 1
    c = game.client()
    c.set_speed(speed=3)
    ev = next(frames)
    assert isinstance(ev, Event) and ev.data["speed"] == 3
    c.close()


def test_idle_timeout_ends_the_stream_and_filters_apply(game: colony.Game) -> None:
    with game.client() as c:
        c.set_speed(speed=0)
        names = [f.name for f in c.events("speed.", idle_timeout=1.0) if isinstance(f, Event)]
        assert names == []


async def _async_events(g: colony.Game) -> list[str]:
    async with g.aclient() as c:
        got: list[str] = []
        async for f in c.events("speed.", include_state=True, idle_timeout=30):
            if isinstance(f, State):
                await c.set_speed(speed=0)
            else:
                got.append(f.name)
                return got
    return got


def test_async_events(game: colony.Game) -> None:
    assert asyncio.run(_async_events(game)) == ["speed.changed"]


def test_spawn_four_games_at_once() -> None:
    seeds = [1, 2, 3, 4]
    with ThreadPoolExecutor(4) as pool:
        games = list(pool.map(lambda s: colony.spawn(seed=s, map=32, mode="Easy"), seeds))
    try:
        ports = {p for g in games for p in (g.http_port, g.ws_port)}
        assert len(ports) == 8
        assert len({g.data_dir for g in games}) == 4
        hashes = set()
        for g in games:
            with g.client() as c:
                assert c.ping()
                trees = tuple(sorted((t["x"], t["y"]) for t in c.trees(limit=0)))
                hashes.add(trees)
        assert len(hashes) == 4, "each game has its own seed and map"
    finally:
        for g in games:
            g.stop()
    for g in games:
        assert g.process is None and not g.data_dir.exists()
