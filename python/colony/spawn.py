"""Starting colonyd from Python: ``with colony.spawn(seed=7) as game: game.client()...``.

Each :class:`Game` is its own colonyd process on free loopback ports (HTTP and WebSocket) with
its own temporary data folder (settings, saves, the log ``colonyd.log``), removed when it stops.
Start as many as the machine holds. The binary is ``binary=``, else ``$COLONYD``, else
``colonyd`` on ``PATH``. A port taken between the pick and the bind is retried on fresh ports.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from .client import AsyncColony, Colony
from .errors import ColonyError


def find_colonyd(binary: str | os.PathLike[str] | None = None) -> str:
    """The colonyd binary: ``binary``, else ``$COLONYD``, else ``colonyd`` on PATH."""
    if binary:
        return os.fspath(binary)
    env = os.environ.get("COLONYD")
    if env:
        return env
    found = shutil.which("colonyd")
    if found:
        return found
    raise FileNotFoundError(
        "colonyd not found: set COLONYD to its path, put it on PATH "
        "(cargo install --path crates/server), or pass binary="
    )


def free_port() -> int:
    """A loopback port free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Game:
    """A running colonyd. Use it as a context manager, or call :meth:`stop`."""

    def __init__(
        self,
        seed: int | None = None,
        faction: str | None = None,
        mode: str | None = None,
        map: int | str | None = None,
        *,
        ready: bool = True,
        settings: dict[str, Any] | None = None,
        binary: str | os.PathLike[str] | None = None,
        start_timeout: float = 60.0,
    ) -> None:
        self.binary = find_colonyd(binary)
        self.args: list[str] = []
        for flag, value in (("--seed", seed), ("--faction", faction), ("--mode", mode)):
            if value is not None:
                self.args += [flag, str(value)]
        if map is not None:
            self.args += ["--map", str(map)]
        if ready:
            self.args.append("--ready")
        self.settings = dict(settings or {})
        self.token: str | None = self.settings.get("authToken") or None
        self.start_timeout = start_timeout
        self.data_dir = Path(tempfile.mkdtemp(prefix="colony-py-"))
        self.http_port = 0
        self.ws_port = 0
        self.process: subprocess.Popen[bytes] | None = None
        try:
            self._start_on_free_ports()
        except BaseException:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            raise

    @property
    def log_path(self) -> Path:
        return self.data_dir / "colonyd.log"

    def _start_on_free_ports(self) -> None:
        last = ""
        for _ in range(5):
            self.http_port, self.ws_port = free_port(), free_port()
            try:
                self.start()
                return
            except ColonyError as e:
                last = e.detail
                if "cannot listen" not in last and "in use" not in last:
                    raise
        raise ColonyError("spawn_failed", f"colonyd could not listen in 5 attempts: {last}")

    def start(self) -> None:
        """Starts colonyd on this game's ports and data folder (again, after :meth:`kill`)."""
        settings = {"autosaveDays": 0, **self.settings}
        settings.update(httpPort=self.http_port, wsPort=self.ws_port)
        (self.data_dir / "settings.json").write_text(json.dumps(settings))
        env = {k: v for k, v in os.environ.items() if k not in ("COLONY_DATA_DIR", "COLONY_LOG")}
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "--data-dir", str(self.data_dir), *self.args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=env,
                start_new_session=True,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        url = f"http://127.0.0.1:{self.http_port}/api/ping"
        assert self.process is not None
        while time.monotonic() < deadline:
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            code = self.process.poll()
            if code is not None:
                log = self.log_path.read_text(errors="replace")[-2000:]
                raise ColonyError("spawn_failed", f"colonyd exited ({code}) at start-up: {log}")
            time.sleep(0.03)
        self.kill()
        raise ColonyError("spawn_failed", f"colonyd did not answer {url} in {self.start_timeout} s")

    def client(self, **kw: Any) -> Colony:
        """A blocking client of this game."""
        return Colony("127.0.0.1", self.http_port, self.token, ws_port=self.ws_port, **kw)

    def aclient(self, **kw: Any) -> AsyncColony:
        """An asyncio client of this game."""
        return AsyncColony("127.0.0.1", self.http_port, self.token, ws_port=self.ws_port, **kw)

    def kill(self) -> None:
        """Stops the process (SIGTERM, then SIGKILL after 10 s); keeps the data folder."""
        p, self.process = self.process, None
        if p is None or p.poll() is not None:
            return
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def restart(self) -> None:
        """Stops colonyd and starts it again on the same ports and data folder."""
        self.kill()
        self.start()

    def stop(self) -> None:
        """Stops colonyd and removes its data folder."""
        self.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __del__(self) -> None:
        if getattr(self, "process", None) is not None:
            self.stop()


def spawn(
    seed: int | None = None,
    faction: str | None = None,
    mode: str | None = None,
    map: int | str | None = None,
    **kw: Any,
) -> Game:
    """Starts a colonyd game (gate open) on free loopback ports; a context manager that stops it.

    ``seed``, ``faction`` (``Folktails``/``IronTeeth``), ``mode`` (``Easy``/``Normal``/``Hard``)
    and ``map`` (``64`` or ``"96x64"``) are colonyd's flags; ``settings`` adds settings-file keys
    (``{"authToken": "..."}``), ``ready=False`` keeps the gate closed, ``binary`` names colonyd.
    """
    return Game(seed, faction, mode, map, **kw)
