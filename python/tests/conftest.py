"""Test fixtures: real colonyd processes (``$COLONYD``, else the checkout's debug build) and the
``colony`` client (``$COLONY_BIN``, else the checkout's debug build)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import colony

REPO = Path(__file__).resolve().parents[2]

if not os.environ.get("COLONYD"):
    built = REPO / "target" / "debug" / "colonyd"
    if built.exists():
        os.environ["COLONYD"] = str(built)


@pytest.fixture
def game() -> Iterator[colony.Game]:
    """A fresh small game (seed 7, 32x32, gate open) of its own."""
    with colony.spawn(seed=7, map=32) as g:
        yield g


@pytest.fixture
def colony_bin() -> str:
    """The ``colony`` client binary (``colony eval``)."""
    path = os.environ.get("COLONY_BIN") or str(REPO / "target" / "debug" / "colony")
    if not Path(path).exists():
        pytest.fail(f"the colony client is not built at {path}: cargo build -p colony-client")
    return path
