#!/usr/bin/env bash
# The Python package's CI step (run by .ci/run after the cargo tests, which build
# target/debug/colonyd and target/debug/colony): a virtualenv .venv-py with the pinned
# requirements, the package installed from ./python and the engine from ./crates/py, ruff, then
# pytest against real colonyd.
set -euo pipefail
cd "$(dirname "$0")/.."
test -x target/debug/colonyd || cargo build -p colony-server --bin colonyd
test -x target/debug/colony || cargo build -p colony-client --bin colony
if [ ! -x .venv-py/bin/pytest ]; then
  python3 -m venv .venv-py
fi
.venv-py/bin/pip install -q --disable-pip-version-check -r python/requirements-ci.txt
# The `rl` extra: PyTorch (pinned; the default PyPI wheel pulls its CUDA libraries, about 5 GB,
# though the tests run it on the CPU) and matplotlib for the PPO baseline (colony.rl.ppo,
# tests/test_ppo.py, agents/ppo.py). Measured on a fresh virtualenv on the 2-core development
# machine: 1 min 40 s for torch, 10 s for matplotlib; nothing when already installed.
.venv-py/bin/pip install -q --disable-pip-version-check './python[gym,rl]'
# The in-process engine (colony.engine, the Gym environment's default backend): a PyO3 module that
# maturin builds from crates/py with cargo (release, its own target folder crates/py/target).
.venv-py/bin/pip install -q --disable-pip-version-check ./crates/py
(cd python && ../.venv-py/bin/ruff check . && ../.venv-py/bin/ruff format --check .)
# The shipped agents, under the package's settings.
.venv-py/bin/ruff check --config python/pyproject.toml agents tools/fake_llm.py
.venv-py/bin/ruff format --config python/pyproject.toml --check agents tools/fake_llm.py
export COLONYD="$PWD/target/debug/colonyd" COLONY_BIN="$PWD/target/debug/colony"
# From python/ (pyproject.toml holds the pytest and ruff settings).
cd python && ../.venv-py/bin/python -m pytest -q -p no:cacheprovider tests
