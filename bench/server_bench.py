#!/usr/bin/env python3
"""The cost of `judge serve` itself, and how many grades an hour it gives: the table in bench/results/server-*.md.

  bench/server_bench.py [--judge build/judge/hpcjudge] [--problems a,b] [--pairs N] [--out FILE.md]

Three measurements, on one machine, in one run:
  1. The server's own overhead per submission: the same file graded alternately by the local judge
     (`judge SLUG FILE --no-bench`, timed from its start to its exit) and through the server (`POST
     /api/submissions` to the report visible on `GET /api/submissions/ID`, polled every 20 ms), N pairs. The
     overhead is the server's time minus the local time, pair by pair; its median (and the range) is reported.
     Both grade with the same isolation (the server's child judges run under the sandbox where bubblewrap is
     installed, and the local judge is given --sandbox then).
  2. The status endpoint's latency while 50 clients poll it (wrk, 50 connections, 20 s) and the worker grades a
     stream of submissions: p50, p95 and p99.
  3. Grades per hour per worker, for each problem of --problems: its fast reference solution (problems/SLUG/
     solutions/) graded with timing through the server; 3600 over the grade's time.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, judge, data, problems, bench):
        self.judge, self.data = judge, data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [judge, "serve", "--data", data, "--listen", f"127.0.0.1:{self.port}", "--problems", ",".join(problems)]
        if not bench:
            args.append("--no-bench")
        self.log = open(os.path.join(data, "..", "serve.log"), "w")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        for line in self.proc.stdout:
            if "serving on" in line:
                break
        else:
            raise SystemExit("judge serve did not start: see " + self.log.name)
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def add_participant(judge, data, name):
    out = subprocess.run([judge, "serve", "--data", data, "--add-participant", name], capture_output=True, text=True,
                         check=True).stdout
    return out.strip().splitlines()[-1]


def request(url, token, data=None, headers=None):
    req = urllib.request.Request(url, data=data, headers={"Authorization": "Bearer " + token, **(headers or {})})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status, json.loads(r.read() or b"null")


def submit(server, token, slug, path):
    boundary = uuid.uuid4().hex
    with open(path, "rb") as f:
        content = f.read()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"problem\"\r\n\r\n{slug}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{os.path.basename(path)}\"\r\n"
            "Content-Type: text/plain\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    _, j = request(server.url + "/api/submissions", token, body,
                   {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    return j["id"]


def wait_done(server, token, sid, poll=0.02):
    while True:
        _, j = request(f"{server.url}/api/submissions/{sid}", token)
        if j.get("state") == "done":
            return j
        time.sleep(poll)


def fast_reference(slug):
    folder = os.path.join(ROOT, "problems", slug, "solutions")
    for name in sorted(os.listdir(folder)):
        if name.startswith("fast") and name.endswith((".cu", ".cpp")):
            return os.path.join(folder, name)
    raise SystemExit(f"no fast reference in {folder}")


def overhead(judge, server, token, slug, path, pairs, sandbox):
    local_args = [judge, slug, path, "--no-bench"] + (["--sandbox"] if sandbox else [])
    rows = []
    for _ in range(pairs):
        t = time.perf_counter()
        subprocess.run(local_args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        local = time.perf_counter() - t
        t = time.perf_counter()
        wait_done(server, token, submit(server, token, slug, path))
        rows.append((local, time.perf_counter() - t))
    return rows


WRK_SCRIPT = """
wrk.headers["Authorization"] = "Bearer %s"
done = function(summary, latency, requests)
  io.write(string.format("wrk: %%d requests, p50 %%.2f ms, p95 %%.2f ms, p99 %%.2f ms, errors %%d\\n",
    summary.requests, latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def polling(server, token, slug, path, sid, seconds):
    stop = threading.Event()

    def stream():  # the worker grades the whole time the clients poll
        while not stop.is_set():
            wait_done(server, token, submit(server, token, slug, path), poll=0.2)

    t = threading.Thread(target=stream, daemon=True)
    t.start()
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT % token)
    out = subprocess.run(["wrk", "-t2", "-c50", f"-d{seconds}s", "-s", f.name, f"{server.url}/api/submissions/{sid}"],
                         capture_output=True, text=True).stdout
    stop.set()
    t.join()  # its last grade ends before the server stops
    os.unlink(f.name)
    return [line for line in out.splitlines() if line.startswith("wrk:")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "judge", "hpcjudge"))
    ap.add_argument("--problem", default="softmax-cpu", help="the problem of measurements 1 and 2")
    ap.add_argument("--problems", default="softmax-cpu", help="measurement 3's problems, comma-separated")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--poll-seconds", type=int, default=20)
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    sandbox = shutil.which("bwrap") is not None
    tmp = tempfile.mkdtemp()
    lines = [f"# judge serve's own cost ({time.strftime('%Y-%m-%d')}, {socket.gethostname()}, {os.cpu_count()} CPUs)", ""]
    try:
        data = os.path.join(tmp, "data")
        token = add_participant(a.judge, data, "bench")
        server = Server(a.judge, data, [a.problem], bench=False)
        path = fast_reference(a.problem)
        rows = overhead(a.judge, server, token, a.problem, path, a.pairs, sandbox)
        diffs = sorted(s - l for l, s in rows)
        lines += [f"## 1. Overhead per submission ({a.problem}, correctness only, {a.pairs} pairs, sandbox {sandbox})", "",
                  f"- local judge: median {statistics.median(l for l, _ in rows):.3f} s",
                  f"- through the server (upload to report visible): median {statistics.median(s for _, s in rows):.3f} s",
                  f"- server's own overhead: median {statistics.median(diffs):.3f} s (range {diffs[0]:.3f} to {diffs[-1]:.3f} s)", ""]
        sid = submit(server, token, a.problem, path)
        wait_done(server, token, sid)
        if shutil.which("wrk"):
            lines += [f"## 2. GET /api/submissions/ID, 50 clients polling for {a.poll_seconds} s while the worker grades", ""]
            lines += ["- " + l for l in polling(server, token, a.problem, path, sid, a.poll_seconds)] + [""]
        server.stop()
        data2 = os.path.join(tmp, "data2")
        token = add_participant(a.judge, data2, "bench")
        problems = a.problems.split(",")
        server = Server(a.judge, data2, problems, bench=True)
        lines += ["## 3. Grades per hour per worker (each problem's fast reference, with timing)", "",
                  "| problem | verdict | score | grade (s) | grades per hour |", "| --- | --- | --- | --- | --- |"]
        for slug in problems:
            t = time.perf_counter()
            j = wait_done(server, token, submit(server, token, slug, fast_reference(slug)), poll=0.2)
            s = time.perf_counter() - t
            score = j.get("score", {}).get("total", 0)
            lines.append(f"| {slug} | {j.get('verdict')} | {score:.1f} | {s:.1f} | {3600 / s:.0f} |")
            print(lines[-1], flush=True)
        server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
