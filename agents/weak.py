#!/usr/bin/env python3
"""The weak baseline: the scripted reference player cut down to water alone.

Each turn it does only the scripted agent's first needs (streets, pumps and a first tank, see
``scripted.py``) and nothing for food, wood or homes. It shows what a colony that never learns to
feed itself scores: it drinks, then starves once the starting food is eaten. It exists so the
evaluation can show that scores order agents (idle < random < weak < scripted,
docs/evaluation.md). Needs the Python package ``colony`` (``pip install ./python``).
"""

from __future__ import annotations

import os
import sys

import colony

# The sibling agents' modules, found whatever the interpreter's path (`python3 -I` leaves the
# script's folder off it).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import scripted  # noqa: E402


def play(c: colony.Colony) -> None:
    t = scripted.Turn(c)
    if t.summary.get("gameOver"):
        return
    for need in (scripted.streets, scripted.pumps, scripted.first_tank):
        need(t)


def main() -> None:
    if not sys.stdin.isatty():
        sys.stdin.read()
    host = os.environ.get("COLONY_HOST", "127.0.0.1")
    port = int(os.environ.get("COLONY_PORT", "8085"))
    with colony.Colony(host=host, port=port) as c:
        play(c)


if __name__ == "__main__":
    main()
