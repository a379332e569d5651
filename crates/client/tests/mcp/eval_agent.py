"""An evaluation agent that plays through MCP: `colony eval` runs it each turn, and it starts the
episode's MCP server from COLONY_MCP_COMMAND with the official MCP Python SDK. On its first turn
it builds a water pump by the river with a path to the district and tries to advance time
(which the harness refuses); it prints what happened for crates/client/tests/e2e/mcp.rs to read
in agent.log.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, TextContent

PUMP = "WaterPump.Folktails"


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    return block.text if isinstance(block, TextContent) else ""


def structured(result: CallToolResult) -> dict[str, Any]:
    if result.is_error or not isinstance(result.structured_content, dict):
        raise RuntimeError(text_of(result))
    return result.structured_content


async def main() -> int:
    sys.stdin.read()
    marker = Path(os.environ["COLONY_AGENT_STATE_DIR"]) / "built"
    if marker.exists():
        return 0
    argv = shlex.split(os.environ["COLONY_MCP_COMMAND"])
    config = json.loads(Path(os.environ["COLONY_MCP_CONFIG"]).read_text())
    assert config["mcpServers"]["colony"]["args"] == argv[1:], config
    async with Client(StdioServerParameters(command=argv[0], args=argv[1:])) as client:
        overview = structured(await client.call_tool("colony_overview", {}))
        ex, ey = (int(v) for v in overview["districts"][0]["entrance"].split(","))
        area = {"x1": ex - 12, "y1": ey - 12, "x2": ex + 12, "y2": ey + 12}
        found = structured(await client.call_tool("find_placement", {"prefab": PUMP, **area}))
        spot = next(p for p in found["placements"] if p["waterDepth"] > 0)
        place = {k: spot[k] for k in ("x", "y", "z", "orientation")}
        placed = structured(await client.call_tool("place_building", {"prefab": PUMP, **place}))
        print("placed", placed["name"], placed["id"], flush=True)
        path = {"x1": spot["entranceX"], "y1": spot["entranceY"], "x2": ex, "y2": ey}
        structured(await client.call_tool("place_path", path))
        refused = await client.call_tool("advance", {"days": 1})
        print("advance:", "refused" if refused.is_error else "ran", text_of(refused).splitlines()[0], flush=True)
        await client.call_tool("log_message", {"message": "built a water pump and its path"})
    marker.write_text("yes")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
