"""Checks the tool profiles of the real `colony mcp --tools ...` with the official MCP Python SDK.

`core` (the default) lists at most 25 tools and its play_turn prompt names only them; a client
that keeps only the first 40 tools of `all` still has every tool the prompt names; `--tools
get_time,advance` lists exactly those two and refuses a call to any other tool, naming the
profile and how to enable it. Prints the size of each tools/list (compact JSON characters), one
line per check and "N passed, N failed"; exits non-zero on a failure.

Run by crates/client/tests/e2e/mcp.rs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import traceback
from typing import Any

from mcp import Client, StdioServerParameters
from mcp_types import TextContent

COMPOSITES = ["colony_overview", "map", "build", "advance", "wait_for_events"]


def named_tools(text: str, every: set[str]) -> set[str]:
    """Tool names in a text: words in backticks, and snake_case words that name a tool."""
    quoted = set(re.findall(r"`([a-z_]+)`", text))
    snake = {w for w in re.findall(r"[a-z]+(?:_[a-z]+)+", text)}
    return (quoted | snake) & every


async def session(colony: str, flags: list[str], tools: str | None) -> dict[str, Any]:
    """Tools, prompt and one refused call of a `colony mcp` with `--tools` (None: the default)."""
    args = ["mcp", *flags] + ([] if tools is None else ["--tools", tools])
    async with Client(StdioServerParameters(command=colony, args=args)) as client:
        listed = (await client.list_tools()).tools
        prompt = await client.get_prompt("play_turn", {"goal": "Survive", "turn": "1"})
        body = prompt.messages[0].content
        assert isinstance(body, TextContent), body
        outside = await client.call_tool("get_summary", {})
        dumped = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]
        return {
            "names": [t.name for t in listed],
            "prompt": body.text,
            "outside": outside,
            "chars": len(json.dumps({"tools": dumped}, separators=(",", ":"))),
        }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--colony", required=True, help="the colony binary")
    parser.add_argument("--port", type=int, required=True, help="colonyd's HTTP port")
    parser.add_argument("--ws-port", type=int, required=True, help="colonyd's WebSocket port")
    args = parser.parse_args()
    flags = ["--port", str(args.port), "--ws-port", str(args.ws_port)]
    core = await session(args.colony, flags, None)
    everything = await session(args.colony, flags, "all")
    two = await session(args.colony, flags, "get_time,advance")
    every = set(everything["names"])
    print(f"tools/list: core {len(core['names'])} tools, {core['chars']} characters", flush=True)
    print(f"tools/list: all {len(everything['names'])} tools, {everything['chars']} characters", flush=True)
    passed = failed = 0

    def check(name: str, condition: bool, why: object) -> None:
        nonlocal passed, failed
        if condition:
            passed += 1
            print(f"ok - {name}", flush=True)
        else:
            failed += 1
            print(f"FAIL - {name}: {why}", flush=True)

    try:
        core_names = set(core["names"])
        check("core lists at most 25 tools", len(core_names) <= 25, core["names"])
        check("core starts with the composite tools", core["names"][:5] == COMPOSITES, core["names"])
        check("all lists every tool", len(every) == 66, len(every))
        named = named_tools(core["prompt"], every)
        check("the core prompt names tools", {"colony_overview", "build", "log_message"} <= named, named)
        check("the core prompt names only core tools", named <= core_names, named - core_names)
        first40 = set(everything["names"][:40])
        named_all = named_tools(everything["prompt"], every)
        check("the first 40 tools of all hold every tool its prompt names", named_all <= first40, named_all - first40)
        core_refused = core["outside"].content[0].text if core["outside"].content else ""
        check(
            "core refuses get_summary, saying how to add it",
            bool(core["outside"].is_error) and "--tools core,get_summary" in core_refused,
            core_refused,
        )
        check("--tools get_time,advance lists exactly those", sorted(two["names"]) == ["advance", "get_time"], two)
        refused = two["outside"]
        text = refused.content[0].text if refused.content and isinstance(refused.content[0], TextContent) else ""
        check(
            "a tool outside the profile is refused, naming the profile and --tools",
            bool(refused.is_error)
            and text.startswith("not_in_profile: get_summary")
            and "get_time,advance" in text
            and "--tools all" in text,
            text,
        )
        check(
            "the two-tool prompt names only its tools", named_tools(two["prompt"], every) <= {"advance"}, two["prompt"]
        )
    except Exception:  # noqa: BLE001 - every failure is reported, then counted
        failed += 1
        print(f"FAIL - {traceback.format_exc()}", flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
