"""Drives the real `colony mcp` with the official MCP Python SDK against a running colonyd.

Over stdio (the SDK starts `colony mcp --tools all` itself) or Streamable HTTP (a `colony mcp
--tools all --http` already listening at --url), it lists the tools (every route of the service's OpenAPI document
is a tool or deliberately left out; every input schema is valid JSON Schema, draft 2020-12),
calls reads and writes (a water pump found, placed, joined by path and read back), gets tool
errors with their codes (a bad placement, an unknown prefab, a bad argument, a path with no
route, marks where nothing qualifies), reads the
resources and the prompt, advances time, and waits for an event. Over HTTP with a token it
also checks that a missing or wrong token is refused. Prints one line per check and
"N passed, N failed"; exits non-zero on a failure.

Run by crates/client/tests/e2e/mcp.rs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import traceback
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent

# Routes no tool calls, as crates/client/src/mcp/catalog.rs lists them.
EXCLUDED = {
    "GET /api/ping",
    "GET /api/game/hash",
    "GET /api/replay",
    "POST /api/replay/turn",
    "POST /api/building/demolish/mark",
    "POST /api/entity/rename",
    "POST /api/placement/mask",
    "POST /api/agent/config",
    "POST /api/agent/request",
    "POST /api/ready",
    "POST /api/game/new",
    "POST /api/game/load",
    "GET /api/openapi.json",
    "GET /api/settings",
    "POST /api/settings",
    "POST /api/benchmark",
    "POST /api/score",
}
COMPOSITES = {"colony_overview", "map", "build", "advance", "wait_for_events"}
PUMP = "WaterPump.Folktails"


class Checks:
    """Runs named checks, printing `ok - name` or `FAIL - name` with the reason."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.passed = 0
        self.failed = 0

    async def run(self, name: str, check: Callable[[], Awaitable[None]]) -> None:
        try:
            await check()
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            self.failed += 1
            print(f"FAIL - {self.label}: {name}\n{traceback.format_exc()}", flush=True)
        else:
            self.passed += 1
            print(f"ok - {self.label}: {name}", flush=True)


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent), block
    return block.text


def ok(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a successful result."""
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict), result.structured_content
    return result.structured_content


def service_routes(base: str, token: str | None) -> set[str]:
    """`METHOD /path` of every operation in the service's own OpenAPI document."""
    req = urllib.request.Request(f"{base}/api/openapi.json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as resp:
        doc = json.load(resp)
    return {f"{method.upper()} {path}" for path, ops in doc["paths"].items() for method in ops}


async def play(client: Client, checks: Checks, base: str, token: str | None) -> None:
    """The checks every transport runs."""
    tools = {t.name: t for t in (await client.list_tools()).tools}

    async def every_route_is_a_tool_or_excluded() -> None:
        covered: dict[str, str] = {}
        for t in tools.values():
            route = (t.meta or {}).get("colony/route")
            if route:
                assert route not in covered, f"{route}: {covered[route]} and {t.name}"
                covered[route] = t.name
        routes = service_routes(base, token)
        assert routes, "the OpenAPI document lists no route"
        missing = routes - set(covered) - EXCLUDED
        assert not missing, f"routes without a tool: {sorted(missing)}"
        unknown = set(covered) - routes
        assert not unknown, f"tools naming routes the service lacks: {sorted(unknown)}"
        assert not EXCLUDED - routes, f"excluded routes the service lacks: {EXCLUDED - routes}"
        assert COMPOSITES <= set(tools), COMPOSITES - set(tools)
        assert len(tools) == len(covered) + len(COMPOSITES) - 1  # advance covers its route

    async def schemas_are_valid_json_schema() -> None:
        for t in tools.values():
            Draft202012Validator.check_schema(t.input_schema)
            assert t.input_schema["type"] == "object", t.name
            assert t.description, t.name
            # Reads say readOnlyHint; the others say whether they destroy (defaults go unsaid).
            a = t.annotations
            assert a is not None and (a.read_only_hint or a.destructive_hint is not None), t.name
            assert a.open_world_hint is False, t.name
        place = tools["place_building"].input_schema
        assert place["properties"]["orientation"]["enum"] == ["south", "west", "north", "east"]
        assert set(place["required"]) == {"prefab", "x", "y", "z", "orientation"}
        # The crops of both factions are too many names to list: the service checks them.
        assert "enum" not in tools["mark_planting"].input_schema["properties"]["crop"]
        assert tools["demolish_building"].annotations.destructive_hint is True
        assert tools["get_summary"].annotations.read_only_hint is True
        validator = Draft202012Validator(place)
        assert not list(validator.iter_errors({"prefab": PUMP, "x": 1, "y": 2, "z": 4, "orientation": "east"}))
        assert list(validator.iter_errors({"prefab": PUMP, "x": 1, "y": 2, "z": 4, "orientation": "up"}))

    await checks.run("every route is a tool or excluded", every_route_is_a_tool_or_excluded)
    await checks.run("schemas are valid JSON Schema 2020-12", schemas_are_valid_json_schema)

    overview: dict[str, Any] = {}

    async def overview_reads_the_colony() -> None:
        result = await client.call_tool("colony_overview", {})
        overview.update(ok(result))
        assert "short:" in text_of(result) or "short[" in text_of(result), text_of(result)
        assert overview["districts"][0]["entrance"], overview
        summary = ok(await client.call_tool("get_summary", {}))
        assert summary["time"]["dayNumber"] >= 1, summary  # the nested JSON
        assert "settlement:" in text_of(await client.call_tool("get_summary", {}))  # TOON rows

    await checks.run("colony_overview and get_summary read the colony", overview_reads_the_colony)

    pumped: dict[str, Any] = {}

    async def a_pump_is_found_placed_joined_and_read_back() -> None:
        entrance = [int(v) for v in overview["districts"][0]["entrance"].split(",")]
        near = {"x1": entrance[0] - 12, "y1": entrance[1] - 12, "x2": entrance[0] + 12, "y2": entrance[1] + 12}
        found = ok(await client.call_tool("find_placement", {"prefab": PUMP, **near}))
        spots = [p for p in found["placements"] if p["waterDepth"] > 0]
        assert spots, found
        spot = spots[0]
        pumped.update(spot)
        args = {k: spot[k] for k in ("x", "y", "z", "orientation")}
        placed = ok(await client.call_tool("place_building", {"prefab": PUMP, **args}))
        path = ok(
            await client.call_tool(
                "place_path",
                {"x1": spot["entranceX"], "y1": spot["entranceY"], "x2": entrance[0], "y2": entrance[1]},
            )
        )
        assert path["errors"] == [], path
        back = ok(await client.call_tool("list_buildings", {"id": placed["id"]}))
        rows = back["items"] if "items" in back else [back]
        assert rows[0]["name"] == PUMP and rows[0]["x"] == spot["x"], back

    await checks.run(
        "a pump is found, placed, joined by path and read back", a_pump_is_found_placed_joined_and_read_back
    )

    async def errors_carry_the_code() -> None:
        bad = await client.call_tool("place_building", {"prefab": PUMP, "x": 0, "y": 0, "z": 0, "orientation": "north"})
        assert bad.is_error, text_of(bad)
        assert text_of(bad).startswith("placement: "), text_of(bad)
        assert bad.structured_content and bad.structured_content["code"] == "placement"
        assert bad.structured_content["reason"], bad.structured_content
        unknown = await client.call_tool(
            "place_building", {"prefab": "Nope.Folktails", "x": 1, "y": 1, "z": 4, "orientation": "north"}
        )
        assert unknown.is_error and text_of(unknown).startswith("invalid_prefab: "), text_of(unknown)
        wrong = await client.call_tool("set_speed", {"speed": "fast"})
        assert wrong.is_error and text_of(wrong).startswith("invalid_param: "), text_of(wrong)
        extra = await client.call_tool("get_time", {"colour": "red"})
        assert extra.is_error and "unknown parameter" in text_of(extra), text_of(extra)

    await checks.run("errors are tool errors with the service's code", errors_carry_the_code)

    async def writes_that_change_nothing_are_errors() -> None:
        entrance = [int(v) for v in overview["districts"][0]["entrance"].split(",")]
        ex, ey = entrance
        pump = pumped
        # The pump's path again: nothing new to place, but the route is there: no error.
        again = await client.call_tool(
            "place_path", {"x1": pump["entranceX"], "y1": pump["entranceY"], "x2": ex, "y2": ey}
        )
        assert ok(again)["placed"]["paths"] == 0 and ok(again)["errors"] == [], text_of(again)
        tiles = ok(
            await client.call_tool(
                "get_tiles", {"x1": ex - 14, "y1": ey - 14, "x2": ex + 14, "y2": ey + 14, "maxChars": 50000}
            )
        )
        deep = max(tiles["tiles"], key=lambda t: t["water"])
        assert deep["water"] > 0.5, deep
        for target in ((deep["x"], deep["y"]), (pump["x"], pump["y"])):
            nothing = await client.call_tool("place_path", {"x1": ex, "y1": ey, "x2": target[0], "y2": target[1]})
            assert nothing.is_error, text_of(nothing)
            assert text_of(nothing).startswith("no_route: no path tile was placed"), text_of(nothing)
            assert nothing.structured_content and nothing.structured_content["code"] == "no_route"
            assert nothing.structured_content["placed"] == {"paths": 0}, nothing.structured_content
        off = await client.call_tool("place_path", {"x1": ex, "y1": ey, "x2": 4000, "y2": ey})
        assert off.is_error and text_of(off).startswith("invalid_param: "), text_of(off)
        area = {"x1": ex - 3, "y1": ey - 3, "x2": ex + 3, "y2": ey + 3, "z": 22}
        cut = await client.call_tool("mark_trees_for_cutting", {**area, "marked": True})
        assert cut.is_error and text_of(cut).startswith("nothing_changed: "), text_of(cut)
        plant = await client.call_tool("mark_planting", {**area, "crop": "Carrot"})
        assert plant.is_error and text_of(plant).startswith("nothing_changed: "), text_of(plant)
        clear = await client.call_tool("clear_planting", area)
        assert clear.is_error and text_of(clear).startswith("nothing_changed: "), text_of(clear)

    await checks.run(
        "writes that change nothing are errors; a joined path is not", writes_that_change_nothing_are_errors
    )

    async def answers_fit_the_budget() -> None:
        box = {"x1": 40, "y1": 40, "x2": 90, "y2": 90}
        spots = await client.call_tool("find_planting_spots", {"crop": "Carrot", **box})
        assert not spots.is_error and len(text_of(spots)) <= 8000, len(text_of(spots))
        more = ok(spots)["more"]
        assert "cursor=" in text_of(spots) and more["cursor"] < more["total"], more
        tiles = await client.call_tool("get_tiles", {"x1": 40, "y1": 40, "x2": 60, "y2": 60})
        assert len(text_of(tiles)) <= 8000 and "a smaller box" in text_of(tiles)
        prefabs = await client.call_tool("list_prefabs", {})
        assert len(text_of(prefabs)) <= 8000 and "more:" in text_of(prefabs)
        rest = ok(await client.call_tool("list_prefabs", {"cursor": ok(prefabs)["more"]["cursor"]}))
        assert len(rest["items"]) + ok(prefabs)["more"]["cursor"] == ok(prefabs)["more"]["total"]
        bigger = await client.call_tool("list_prefabs", {"maxChars": 50000})
        assert len(text_of(bigger)) > len(text_of(prefabs)) and "more:" not in text_of(bigger)
        refused = await client.call_tool("list_prefabs", {"maxChars": 100})
        assert refused.is_error and "500 to 50000" in text_of(refused)

    await checks.run("answers fit the budget: cut lists with a cursor, maxChars", answers_fit_the_budget)

    async def resources_and_prompt() -> None:
        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        assert listed == {"colony://summary", "colony://map", "colony://prefabs", "colony://goal"}, listed
        summary = (await client.read_resource("colony://summary")).contents[0]
        assert "settlement: " in getattr(summary, "text", ""), summary
        drawn = (await client.read_resource("colony://map")).contents[0]
        assert "B building" in getattr(drawn, "text", ""), drawn
        prompt = await client.get_prompt("play_turn", {"goal": "Keep 12 beavers alive", "turn": "1"})
        body = prompt.messages[0].content
        assert isinstance(body, TextContent) and "Goal: Keep 12 beavers alive" in body.text, body

    await checks.run("resources and the play_turn prompt", resources_and_prompt)

    async def map_build_and_advance() -> None:
        drawn = await client.call_tool("map", {"x1": 20, "y1": 15, "x2": 45, "y2": 35})
        assert "  35 " in text_of(drawn) and ok(drawn)["region"]["x2"] == 45, text_of(drawn)
        built = ok(await client.call_tool("build", {"prefab": "SmallTank.Folktails"}))
        assert built["placed"]["name"] == "SmallTank.Folktails", built
        assert built["path"]["errors"] == [], built
        report = ok(await client.call_tool("advance", {"hours": 12}))
        for key in ("births", "deaths", "finished", "population", "weather", "daysLeft"):
            assert key in report, report
        assert report["time"]["hours"] == 12, report
        assert any(b["name"] == "SmallTank.Folktails" for b in report["finished"]), report

    await checks.run("map, build and advance", map_build_and_advance)

    async def wait_for_events_sees_a_placement() -> None:
        async def place_later() -> None:
            await asyncio.sleep(1.0)
            ok(await client.call_tool("build", {"prefab": "SmallPile.Folktails", "path": False}))

        waited, _ = await asyncio.gather(
            client.call_tool("wait_for_events", {"names": ["building.placed"], "timeout_seconds": 20, "max_events": 1}),
            place_later(),
        )
        events = ok(waited)["events"]
        assert events and events[0]["event"] == "building.placed", waited
        assert events[0]["data"]["name"] == "SmallPile.Folktails", events

    await checks.run("wait_for_events sees a placement", wait_for_events_sees_a_placement)


def post_initialize(url: str, token: str | None) -> int:
    """The HTTP status of a bare initialize request."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
    ).encode()
    req = urllib.request.Request(url, data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    req.add_header("Accept", "application/json, text/event-stream")
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--colony", required=True, help="the colony binary")
    parser.add_argument("--port", type=int, required=True, help="colonyd's HTTP port")
    parser.add_argument("--ws-port", type=int, required=True, help="colonyd's WebSocket port")
    parser.add_argument("--token", help="the service's token")
    parser.add_argument("--url", help="a colony mcp --http endpoint (else: stdio)")
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    token: str | None = args.token

    if args.url is None:
        checks = Checks("stdio")
        flags = ["mcp", "--tools", "all", "--port", str(args.port), "--ws-port", str(args.ws_port)]
        if token:
            flags += ["--token", token]
        server = StdioServerParameters(command=args.colony, args=flags)
        async with Client(server) as client:
            await play(client, checks, base, token)
    else:
        checks = Checks("http")
        url: str = args.url

        async def refused_without_the_right_token() -> None:
            assert token, "the HTTP test runs with a token"
            assert post_initialize(url, None) == 401
            assert post_initialize(url, "wrong-" + token) == 401
            assert post_initialize(url, token) == 200
            failed = False
            try:
                async with Client(url, mode="legacy") as client:
                    await client.list_tools()
            except Exception:  # noqa: BLE001 - any failure to connect is the expected refusal
                failed = True
            assert failed, "the SDK client connected without the token"

        await checks.run("a missing or wrong token is refused", refused_without_the_right_token)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for mode in ("legacy", "auto"):
            async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http:
                async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
                    if mode == "legacy":
                        await play(client, checks, base, token)
                    else:
                        names = {t.name for t in (await client.list_tools()).tools}
                        await checks.run(f"{mode} negotiation lists the tools", _assert(COMPOSITES <= names))
    print(f"{checks.passed} passed, {checks.failed} failed", flush=True)
    return 1 if checks.failed else 0


def _assert(condition: bool) -> Callable[[], Awaitable[None]]:
    async def check() -> None:
        assert condition

    return check


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
