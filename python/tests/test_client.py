"""The client against a real colonyd: the generated module matches the service's OpenAPI
document, every route answers through its method, errors come with their codes."""

from __future__ import annotations

from typing import Any

import pytest

import colony
from colony import codegen
from colony._routes import ROUTES


def test_generated_routes_match_the_service(game: colony.Game) -> None:
    with game.client() as c:
        doc = c.openapi()
    expected = codegen.render(doc)
    assert codegen.TARGET.read_text() == expected, (
        "colony/_routes.py differs from the service's OpenAPI document: "
        "run `python -m colony.codegen` and commit the result"
    )
    ops = [(m.upper(), p) for p, o in doc["paths"].items() for m in o]
    served = {(m, p) for m, p in ops if m in ("GET", "POST")}
    assert {(m, p) for m, p, _ in ROUTES} == served


def _lodge(c: colony.Colony) -> int:
    spots = c.placement_find(prefab="Lodge.Folktails", x1=0, y1=0, x2=31, y2=31)["placements"]
    s = spots[0]
    placed = c.building_place(
        prefab="Lodge.Folktails", x=s["x"], y=s["y"], z=s["z"], orientation=s["orientation"]
    )
    return int(placed["id"])


def _calls(ids: dict[str, int]) -> list[tuple[str, dict[str, Any], str | None]]:
    """(method, arguments, expected error code or None) for every route, in a safe order."""
    lodge = ids["lodge"]
    area = {"x1": 0, "y1": 0, "x2": 3, "y2": 3, "z": 4}
    whole = {"x1": 0, "y1": 0, "x2": 31, "y2": 31}
    spot = {"x": 1, "y": 1, "z": 4, "orientation": "south"}
    return [
        ("ping", {}, None),
        ("openapi", {}, None),
        ("time", {}, None),
        ("weather", {}, None),
        ("speed", {}, None),
        ("set_speed", {"speed": 0}, None),
        ("workhours", {}, None),
        ("set_workhours", {"end_hours": 18}, None),
        ("settlement", {}, None),
        ("settings", {}, None),
        ("set_settings", {"action_logging_enabled": True}, None),
        ("agent_state", {}, None),
        ("agent_config", {"goal": "survive"}, None),
        ("agent_request", {"prompt": "build a pump"}, None),
        ("agent_message", {"message": "placing a pump"}, None),
        ("agent_log", {}, None),
        ("ready", {"ready": True}, None),
        ("tiles", {"x1": 0, "y1": 0, "x2": 3, "y2": 3}, None),
        ("trees", {"limit": 5}, None),
        ("crops", {}, None),
        ("gatherables", {"limit": 5}, None),
        ("tree_clusters", {}, None),
        ("food_clusters", {}, None),
        ("cutting_area", {**area, "marked": True}, None),
        ("planting_mark", {**area, "crop": "Carrot"}, None),
        ("planting_clear", area, None),
        ("planting_find", {"crop": "Carrot", **area}, None),
        ("crop_demolish", {"id": 12345}, "not_found"),
        ("path_place", {"x1": 1, "y1": 1, "x2": 3, "y2": 1}, None),
        ("prefabs", {}, None),
        ("science", {}, None),
        ("science_unlock", {"building": "Agora.Folktails"}, "insufficient_science"),
        ("summary", {}, None),
        ("stats", {"from_": 1}, None),
        ("score", {"horizon_days": 60, "terms": [{"metric": "alive", "target": 1}]}, None),
        ("buildings", {"detail": "full"}, None),
        ("beavers", {"limit": 3}, None),
        ("population", {}, None),
        ("resources", {}, None),
        ("districts", {}, None),
        ("distribution", {}, None),
        ("set_distribution", {"district": "District 1", "good": "Log", "import_": "Auto"}, None),
        ("district_migrate", {"from_": "District 1", "to": "Nowhere", "count": 1}, "not_found"),
        ("wellbeing", {}, None),
        ("alerts", {}, None),
        ("notifications", {}, None),
        ("power", {}, None),
        ("placement_find", {"prefab": "Lodge.Folktails", **whole}, None),
        ("placement_mask", {"prefabs": ["Lodge.Folktails"]}, None),
        ("building_place", {"prefab": "Nope", **spot}, "invalid_prefab"),
        ("building_pause", {"id": lodge, "paused": True}, "invalid_type"),
        ("building_priority", {"id": lodge, "priority": "VeryHigh"}, None),
        ("building_workers", {"id": lodge, "count": 1}, "invalid_type"),
        ("building_hauling", {"id": lodge, "prioritized": True}, None),
        ("building_recipe", {"id": lodge, "recipe": "Plank"}, "invalid_type"),
        ("building_farmhouse", {"id": lodge, "action": "planting"}, "invalid_type"),
        ("building_plantable", {"id": lodge, "plantable": "Pine"}, "invalid_type"),
        ("building_storage", {"id": lodge, "good": "Log"}, "invalid_type"),
        ("building_floodgate", {"id": lodge, "height": 0.5}, "invalid_type"),
        ("building_range", {"id": lodge}, "invalid_type"),
        ("building_clutch", {"id": lodge, "engaged": True}, "invalid_type"),
        ("dynamite_detonate", {"id": lodge}, "invalid_type"),
        ("zipline_connect", {"from_": lodge, "to": lodge}, "invalid_type"),
        ("zipline_disconnect", {"from_": lodge, "to": lodge}, "invalid_type"),
        ("automation_link", {"source_id": lodge, "target_id": lodge}, "invalid_type"),
        ("automation_unlink", {"id": lodge}, "invalid_type"),
        ("automation_configure", {"id": lodge, "property": "mode", "value": "x"}, "invalid_type"),
        ("entity_rename", {"id": lodge, "name": "Home"}, "invalid_type"),
        ("building_demolish_mark", {"id": lodge, "marked": True}, "invalid_type"),
        ("building_demolish", {"id": lodge}, None),
        ("benchmark", {"iterations": 1}, "disabled"),
        ("game_advance", {"hours": 1}, None),
        ("game_save", {"name": "pytest"}, None),
        ("game_saves", {}, None),
        ("game_hash", {}, None),
        ("replay", {}, "disabled"),
        ("replay_turn", {"turn": 1}, "disabled"),
        ("game_load", {"name": "pytest"}, None),
        ("ready", {"ready": True}, None),
        ("game_new", {"seed": 3, "map": "32"}, None),
    ]


def test_every_route_answers_through_its_method(game: colony.Game) -> None:
    with game.client() as c:
        calls = _calls({"lodge": _lodge(c)})
        assert {name for name, _, _ in calls} == {name for _, _, name in ROUTES}
        got: list[tuple[str, str | None]] = []
        for name, kwargs, _ in calls:
            try:
                answer = getattr(c, name)(**kwargs)
                got.append((name, None))
                assert answer is not None
            except colony.ColonyError as e:
                got.append((name, e.code))
        assert got == [(name, code) for name, _, code in calls]
        # After game_new the gate is closed: a game route answers 409 game_not_ready.
        with pytest.raises(colony.ColonyError) as e:
            c.time()
        assert e.value.code == "game_not_ready"
        assert e.value.status == 409
        assert "hint" in e.value.extras


def test_domain_errors_raise_with_http_200_and_their_extras(game: colony.Game) -> None:
    with game.client() as c:
        with pytest.raises(colony.ColonyError) as e:
            c.path_place(x1=-5, y1=0, x2=3, y2=3)
        assert (e.value.code, e.value.status, e.value.extras["got"]) == ("invalid_param", 200, -5)
        with pytest.raises(colony.ColonyError) as e:
            c.building_place(prefab="Lodge.Folktails", x=0, y=0, z=40, orientation="north")
        assert e.value.code == "placement"
        assert e.value.extras["reason"] == "unreachable_z"


def test_token_and_strict_statuses() -> None:
    settings = {"authToken": "s3cret", "strictHttpStatus": True}
    with colony.spawn(seed=7, map=32, settings=settings) as g:
        with colony.Colony("127.0.0.1", g.http_port) as anonymous:
            with pytest.raises(colony.ColonyError) as e:
                anonymous.time()
            assert (e.value.code, e.value.status) == ("unauthorized", 401)
            assert anonymous.ping()  # ping needs no token
        with g.client() as c, pytest.raises(colony.ColonyError) as e:
            c.buildings(id=5)
        assert (e.value.code, e.value.status) == ("not_found", 404)


def test_localhost_is_sent_as_loopback_and_toon_on_request(game: colony.Game) -> None:
    with colony.Colony("localhost", game.http_port, format="toon-text") as c:
        text = c.time()
        assert isinstance(text, str) and "ticks" in text


def test_big_answers_come_plain_on_loopback_and_gzipped_to_who_asks() -> None:
    import httpx

    from colony._base import _is_loopback

    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert not _is_loopback("192.0.2.7") and not _is_loopback("colony.example")
    path = "/api/tiles?x1=0&y1=0&x2=63&y2=63&format=json"
    with colony.spawn(seed=7, map=64) as g:
        with g.client() as c:
            ours = c._http.get(path)
            assert "content-encoding" not in ours.headers
        theirs = httpx.get(f"http://127.0.0.1:{g.http_port}{path}")
        assert theirs.headers["content-encoding"] == "gzip"
        assert theirs.json() == ours.json()


def test_unreachable() -> None:
    with colony.Colony("127.0.0.1", colony.spawn.__globals__["free_port"]()) as c:
        with pytest.raises(colony.ColonyError) as e:
            c.ping()
        assert e.value.code == "unreachable"


def test_pagination_reads_every_item(game: colony.Game) -> None:
    with game.client() as c:
        total = c.trees(limit=1)["total"]
        ids = [t["id"] for t in c.iterate(c.trees, page_size=7)]
        assert len(ids) == total == len(set(ids)) > 7
        everything = c.trees(limit=0)
        assert sorted(ids) == sorted(t["id"] for t in everything)


async def _async_roundtrip(port: int, ws_port: int) -> tuple[Any, list[int]]:
    async with colony.AsyncColony("127.0.0.1", port, ws_port=ws_port) as c:
        await c.set_speed(speed=0)
        ids = [t["id"] async for t in c.iterate(c.trees, page_size=10)]
        return await c.speed(), ids


def test_async_twin(game: colony.Game) -> None:
    import asyncio

    speed, ids = asyncio.run(_async_roundtrip(game.http_port, game.ws_port))
    assert speed == {"speed": 0}
    with game.client() as c:
        assert len(ids) == c.trees(limit=1)["total"]
