"""Ping latency while other clients ask for heavy encodings (issue 13, item 8).

Starts nothing: point it at a running colonyd (a release build on a 256x256 map makes the
heaviest answer: `colonyd --ready --seed 7 --map 256`). READERS threads each fetch the whole map
as TOON text (`GET /api/tiles?...&format=toon-text`) in a loop while the main thread asks
`/api/ping` PINGS times, 20 ms apart, and prints the ping latency percentiles.

    python3 tools/ping_under_load.py --port 8080 --readers 4 --pings 300
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import threading
import time


def fetch(conn: http.client.HTTPConnection, path: str) -> int:
    conn.request("GET", path)
    resp = conn.getresponse()
    return len(resp.read())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--readers", type=int, default=4)
    ap.add_argument("--pings", type=int, default=300)
    ap.add_argument(
        "--map", type=int, default=256, help="map side (the tile area asked)"
    )
    args = ap.parse_args()
    side = args.map - 1
    heavy = f"/api/tiles?x1=0&y1=0&x2={side}&y2={side}&format=toon-text"
    stop = threading.Event()
    reads: list[float] = []

    def reader() -> None:
        conn = http.client.HTTPConnection(args.host, args.port, timeout=120)
        while not stop.is_set():
            t0 = time.perf_counter()
            fetch(conn, heavy)
            reads.append(time.perf_counter() - t0)

    threads = [
        threading.Thread(target=reader, daemon=True) for _ in range(args.readers)
    ]
    for t in threads:
        t.start()
    time.sleep(1.0)
    conn = http.client.HTTPConnection(args.host, args.port, timeout=30)
    lat = []
    for _ in range(args.pings):
        t0 = time.perf_counter()
        fetch(conn, "/api/ping")
        lat.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.02)
    stop.set()
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(
        f"ping ms over {len(lat)}: p50 {q[49]:.2f}  p90 {q[89]:.2f}  p99 {q[98]:.2f}  max {lat[-1]:.2f}"
    )
    if reads:
        print(
            f"heavy reads finished: {len(reads)}, median {statistics.median(reads) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
