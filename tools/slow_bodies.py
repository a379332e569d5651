"""Ping and write latency while clients hold requests whose body never comes (issue 32, item 1).

Starts nothing: point it at a running colonyd with its ready gate open (`colonyd --ready`).
One thread opens ATTEMPTS connections, ATTEMPTS/SECONDS a second, each sending a POST head with
`Content-Length: 100000` and then nothing (or, with --trickle, a byte every 5 s), and keeps them
open. Meanwhile the main thread, every 20 ms, opens a fresh connection for `GET /api/ping` and
another for `POST /api/speed` and times each from connect to answer. Prints the percentiles,
the failures (a closed connection, a timeout) and what became of the slow connections.

    python3 tools/slow_bodies.py --port 8085 --attempts 1000 --seconds 5
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import socket
import statistics
import threading
import time

HEAD = (
    b"POST /api/speed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100000\r\n\r\n"
)


def timed(host: str, port: int, method: str, path: str, body: bytes | None) -> float:
    """Milliseconds from connect to a whole answer on a fresh connection; raises on failure."""
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        resp.read()
        if resp.status != 200:
            raise RuntimeError(f"{method} {path}: HTTP {resp.status}")
    finally:
        conn.close()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8085)
    ap.add_argument("--attempts", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=5.0, help="spread the attempts over this")
    ap.add_argument("--trickle", action="store_true", help="send a body byte every 5 s")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.attempts + 256)), hard))

    held: list[socket.socket] = []
    refused = 0
    done = threading.Event()

    def attacker() -> None:
        nonlocal refused
        gap = args.seconds / max(args.attempts, 1)
        for _ in range(args.attempts):
            try:
                s = socket.create_connection((args.host, args.port), timeout=5)
                s.sendall(HEAD)
                held.append(s)
            except OSError:
                refused += 1
            time.sleep(gap)
        done.set()

    def trickler() -> None:
        while True:
            time.sleep(5.0)
            for s in list(held):
                try:
                    s.sendall(b" ")
                except OSError:
                    pass

    threading.Thread(target=attacker, daemon=True).start()
    if args.trickle:
        threading.Thread(target=trickler, daemon=True).start()
    pings: list[float] = []
    writes: list[float] = []
    failures: list[str] = []
    speed = 1
    while not done.is_set():
        try:
            pings.append(timed(args.host, args.port, "GET", "/api/ping", None))
        except Exception as e:  # noqa: BLE001 - every failure is counted
            failures.append(f"ping: {e!r}")
        speed = 2 if speed == 1 else 1
        try:
            body = json.dumps({"speed": speed}).encode()
            writes.append(timed(args.host, args.port, "POST", "/api/speed", body))
        except Exception as e:  # noqa: BLE001
            failures.append(f"write: {e!r}")
        time.sleep(0.02)
    closed = answered_408 = 0
    for s in held:
        s.setblocking(False)
        try:
            got = s.recv(1 << 16, socket.MSG_PEEK)
            if got.startswith(b"HTTP/1.1 408"):
                answered_408 += 1
            elif got == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1

    def pct(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")

    for name, xs in (("ping", pings), ("write", writes)):
        print(
            f"{name}: n={len(xs)} p50={statistics.median(xs) if xs else float('nan'):.2f} ms "
            f"p90={pct(xs, 0.9):.2f} p99={pct(xs, 0.99):.2f} max={max(xs, default=float('nan')):.2f} ms"
        )
    print(f"failures: {len(failures)} {failures[:3]}")
    print(
        f"slow connections: {len(held)} opened, {refused} refused at connect, "
        f"{answered_408} answered 408, {closed} closed without an answer"
    )


if __name__ == "__main__":
    main()
