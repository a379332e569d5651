"""Mixed reads and writes from many clients while the game runs, then a check that no acknowledged
write was lost, with colonyd's memory sampled throughout (issue 32's load test).

Starts nothing: point it at a running colonyd with its ready gate open (a release build on the
large benchmark colony: `colonyd --fixture large --save large.colony.json`, then `colonyd --ready
--load large.colony.json --port 8085`). The game is set to SPEED. CLIENTS threads, each on its own
keep-alive connection and owning its own finished workplaces, loop for SECONDS: two requests in
five are writes to their own buildings (pause, workplace priority, desired workers: the value is
drawn at random), the rest the reads an agent sends per step. A write counts as acknowledged when
it is answered 200 without an `error`; the value its answer names is the client's latest for that
field. At the end the game is paused and every owned building read back: a field whose value is
not the client's last acknowledged one is a lost write. With --pid, colonyd's resident memory
(VmRSS) is sampled every 5 s.

    python3 tools/write_load.py --port 8085 --clients 32 --seconds 180 --speed 3 --pid PID
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import threading
import time
from pathlib import Path

READS = [
    "/api/ping",
    "/api/summary",
    "/api/buildings",
    "/api/beavers",
    "/api/trees",
    "/api/weather",
    "/api/time",
]
PRIORITIES = ["VeryLow", "Low", "Normal", "High", "VeryHigh"]


class Conn:
    """One keep-alive connection that reconnects after a failure."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=30)

    def call(
        self, method: str, path: str, body: dict | None = None
    ) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
            return resp.status, resp.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            raise


class Client(threading.Thread):
    """One client: its own buildings, its latencies, its acknowledged values."""

    def __init__(
        self, host: str, port: int, owned: list[dict], deadline: float, seed: int
    ):
        super().__init__(daemon=True)
        self.conn = Conn(host, port)
        self.owned = owned
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.acked: dict[tuple[int, str], object] = {}
        self.reads: list[float] = []
        self.writes: list[float] = []
        self.failures = 0
        self.refused = 0

    def write(self) -> None:
        b = self.rng.choice(self.owned)
        kind = self.rng.choice(["pause", "priority", "workers"])
        if kind == "pause":
            path, body, field = (
                "/api/building/pause",
                {"paused": self.rng.random() < 0.5},
                "paused",
            )
        elif kind == "priority":
            path = "/api/building/priority"
            body = {"priority": self.rng.choice(PRIORITIES), "type": "workplace"}
            field = "workplacePriority"
        else:
            path = "/api/building/workers"
            body = {"count": self.rng.randint(0, b["maxWorkers"])}
            field = "desiredWorkers"
        body["id"] = b["id"]
        t = time.perf_counter()
        status, raw = self.conn.call("POST", path, body)
        self.writes.append(time.perf_counter() - t)
        answer = json.loads(raw)
        if status == 200 and "error" not in answer:
            self.acked[(b["id"], field)] = answer[field]
        else:
            self.refused += 1

    def run(self) -> None:
        while time.monotonic() < self.deadline:
            try:
                if self.rng.random() < 0.4:
                    self.write()
                else:
                    t = time.perf_counter()
                    status, _ = self.conn.call("GET", self.rng.choice(READS))
                    self.reads.append(time.perf_counter() - t)
                    if status != 200:
                        self.failures += 1
            except (OSError, http.client.HTTPException, ValueError):
                self.failures += 1


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"{xs[min(len(xs) - 1, int(q * len(xs)))] * 1000:.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--speed", type=int, default=3)
    ap.add_argument(
        "--pid", type=int, help="colonyd's process id, to sample its memory"
    )
    args = ap.parse_args()
    admin = Conn(args.host, args.port)
    _, raw = admin.call("GET", "/api/buildings?format=json&detail=full&limit=0")
    places = [
        b
        for b in json.loads(raw)
        if b.get("finished")
        and (b.get("maxWorkers") or 0) > 0
        and "DistrictCenter" not in b["name"]
    ]
    if len(places) < args.clients:
        raise SystemExit(
            f"{len(places)} finished workplaces for {args.clients} clients: use a larger colony"
        )
    owned = [places[i :: args.clients] for i in range(args.clients)]
    admin.call("POST", "/api/speed", {"speed": args.speed})
    deadline = time.monotonic() + args.seconds
    clients = [
        Client(args.host, args.port, owned[i], deadline, i) for i in range(args.clients)
    ]
    for c in clients:
        c.start()
    rss: list[float] = []
    while any(c.is_alive() for c in clients):
        if args.pid:
            rss.append(rss_mib(args.pid))
        time.sleep(5)
    # The admin connection idled past httpIdleSeconds while the clients ran: a fresh one.
    admin = Conn(args.host, args.port)
    admin.call("POST", "/api/speed", {"speed": 0})
    _, raw = admin.call("GET", "/api/buildings?format=json&detail=full&limit=0")
    now = {b["id"]: b for b in json.loads(raw)}
    acked = {k: v for c in clients for k, v in c.acked.items()}
    lost = [
        (bid, f, v, now.get(bid, {}).get(f))
        for (bid, f), v in acked.items()
        if now.get(bid, {}).get(f) != v
    ]
    reads = [x for c in clients for x in c.reads]
    writes = [x for c in clients for x in c.writes]
    print(f"clients {args.clients}, {args.seconds:.0f} s at speed {args.speed}")
    print(
        f"requests {len(reads) + len(writes)}: reads {len(reads)}, writes {len(writes)}"
    )
    print(
        f"read p50 {pct(reads, 0.5)}, p99 {pct(reads, 0.99)}; write p50 {pct(writes, 0.5)}, p99 {pct(writes, 0.99)}"
    )
    print(
        f"writes refused {sum(c.refused for c in clients)}, failed requests {sum(c.failures for c in clients)}"
    )
    print(f"fields with an acknowledged write {len(acked)}, lost {len(lost)}")
    for bid, f, v, got in lost[:10]:
        print(f"  lost: building {bid} {f}: acknowledged {v!r}, reads {got!r}")
    if rss:
        third = max(1, len(rss) // 3)
        print(
            f"RSS MiB: first {rss[0]:.1f}, max {max(rss):.1f}, last {rss[-1]:.1f}; "
            f"mean of the first third {statistics.mean(rss[:third]):.1f}, of the last {statistics.mean(rss[-third:]):.1f}"
        )
    if lost:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
