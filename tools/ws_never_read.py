"""WebSockets that never read, against colonyd's descriptors and HTTP (issue 32, item 2).

Starts nothing: point it at a running colonyd (`--pid` for its open descriptors, read from
/proc). Opens ATTEMPTS WebSockets (raw handshakes, tiny receive buffers), never reads or writes
anything on them, and meanwhile asks `/api/ping` on a fresh connection every 20 ms. Then waits
WAIT seconds (more than three `wsPingSeconds` intervals) and prints the ping percentiles and
failures, the upgrades refused, and colonyd's open descriptors before, at the peak and after.

    python3 tools/ws_never_read.py --port 8085 --ws-port 8086 --pid PID --attempts 1600 --wait 8
"""

from __future__ import annotations

import argparse
import base64
import http.client
import os
import resource
import socket
import statistics
import threading
import time


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd")) if pid else -1


def upgrade(host: str, port: int) -> socket.socket | None:
    """A WebSocket handshake on a socket with a tiny receive buffer; None when refused."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.settimeout(10)
    s.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /api/ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        s.close()
        return None
    return s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8085)
    ap.add_argument("--ws-port", type=int, default=8086)
    ap.add_argument("--pid", type=int, default=0)
    ap.add_argument("--attempts", type=int, default=1600)
    ap.add_argument("--wait", type=float, default=8.0)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.attempts + 256)), hard))
    before = fds(args.pid)
    held: list[socket.socket] = []
    counts = {"refused": 0, "failed": 0}
    done = threading.Event()
    peak = [before]

    def opener() -> None:
        for _ in range(args.attempts):
            try:
                s = upgrade(args.host, args.ws_port)
                if s is None:
                    counts["refused"] += 1
                else:
                    held.append(s)
            except OSError:
                counts["failed"] += 1
            peak[0] = max(peak[0], fds(args.pid))
        done.set()

    threading.Thread(target=opener, daemon=True).start()
    lat: list[float] = []
    failures: list[str] = []
    end = None
    while end is None or time.monotonic() < end:
        if end is None and done.is_set():
            end = time.monotonic() + args.wait
        t0 = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(args.host, args.port, timeout=10)
            conn.request("GET", "/api/ping")
            resp = conn.getresponse()
            resp.read()
            conn.close()
            if resp.status != 200:
                raise RuntimeError(f"HTTP {resp.status}")
            lat.append((time.perf_counter() - t0) * 1000)
        except Exception as e:  # noqa: BLE001 - every failure is counted
            failures.append(repr(e))
        peak[0] = max(peak[0], fds(args.pid))
        time.sleep(0.02)
    after = fds(args.pid)
    lat.sort()
    if lat:
        print(
            f"ping: n={len(lat)} p50={statistics.median(lat):.2f} ms "
            f"p99={lat[min(len(lat) - 1, int(0.99 * len(lat)))]:.2f} max={lat[-1]:.2f} ms"
        )
    print(f"ping failures: {len(failures)} {failures[:2]}")
    print(
        f"websockets: {len(held)} upgraded, {counts['refused']} refused (503), "
        f"{counts['failed']} failed to connect"
    )
    print(f"colonyd descriptors: {before} before, {peak[0]} at the peak, {after} {args.wait} s after")


if __name__ == "__main__":
    main()
