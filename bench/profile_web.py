"""Daphne with a profiler, for the live benches: where a web process's CPU goes under load.

    BENCH_DAPHNE_WRAPPER=bench/profile_web.py BENCH_PROFILE=sample uv run python \\
        bench/live_latency.py --game chudopoly --tables 40 --think 1 --duration 30 ...
    kill -USR1 <web pid>    # start (after the warm-up)
    kill -USR2 <web pid>    # stop and write .bench-logs/profile-<pid>.txt

BENCH_PROFILE=sample: every thread's stack is read every 2 ms and charged with the CPU its
thread used since the last reading (the thread's own CPU clock), so a thread waiting for the
GIL or for the network counts nothing. It writes the thread CPU split, the top functions by
CPU charged to them alone and with what they called, and collapsed stacks (for a flame graph).
BENCH_PROFILE=cprofile: cProfile in the event loop's thread and the table lane's (call counts
are the load-independent part; its times are inflated by its own cost). Both also count the
collector's passes and their time.
"""

from __future__ import annotations

import cProfile
import gc
import io
import os
import pstats
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

OUT = Path(os.environ.get("BENCH_PROFILE_DIR", Path(__file__).resolve().parent.parent
                          / ".bench-logs"))
MODE = os.environ.get("BENCH_PROFILE", "sample")
INTERVAL = float(os.environ.get("BENCH_PROFILE_INTERVAL", "0.002"))
LONG_PASS = 0.05  # seconds of CPU: a collector's pass long enough to show in every seat's p99


class GcClock:
    def __init__(self) -> None:
        self.passes = Counter[int]()
        self.seconds = Counter[int]()
        self._started = 0.0
        self.longest = Counter[int]()
        # The wall-clock moments of long passes, to set beside live_latency's slow seconds:
        # a pass that stops the process shows there as a second of slow moves on its web alone.
        self.long_at: list[str] = []

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.passes[info["generation"]] += 1
            took = time.thread_time() - self._started
            self.seconds[info["generation"]] += took
            self.longest[info["generation"]] = max(self.longest[info["generation"]], took)
            if took > LONG_PASS:
                self.long_at.append(f"{time.strftime('%H:%M:%S')} gen {info['generation']} "
                                    f"{1000 * took:.0f} ms")

    def words(self) -> str:
        words = ", ".join(f"gen {g}: {self.passes[g]} passes {1000 * self.seconds[g]:.1f} ms"
                          f" (longest {1000 * self.longest[g]:.1f})"
                          for g in sorted(self.passes))
        if self.long_at:
            words += f"; over {1000 * LONG_PASS:.0f} ms at " + ", ".join(self.long_at)
        return words


def _where(frame: FrameType) -> str:
    code = frame.f_code
    name = code.co_filename
    for cut in ("site-packages/", "/wt-live/", "/python3.11/"):
        if cut in name:
            name = name.split(cut, 1)[1]
            break
    return f"{name}:{code.co_name}"


class Sampler:
    def __init__(self) -> None:
        self.stacks = Counter[tuple[str, ...]]()
        self.by_thread = Counter[str]()
        self.running = False
        self._last: dict[int, float] = {}

    def start(self) -> None:
        self.running = True
        threading.Thread(target=self._run, name="profile-sampler", daemon=True).start()

    def _cpu(self, ident: int) -> float:
        return time.clock_gettime(time.pthread_getcpuclockid(ident))

    def _run(self) -> None:
        me = threading.get_ident()
        names = {}
        while self.running:
            time.sleep(INTERVAL)
            names = {t.ident: t.name for t in threading.enumerate()}
            for ident, frame in sys._current_frames().items():
                if ident == me:
                    continue
                try:
                    now = self._cpu(ident)
                except OSError:
                    continue
                spent = now - self._last.get(ident, now)
                self._last[ident] = now
                if spent <= 0:
                    continue
                stack = []
                f: FrameType | None = frame
                while f is not None:
                    stack.append(_where(f))
                    f = f.f_back
                thread = names.get(ident, str(ident)).split("_")[0]
                self.by_thread[thread] += spent
                self.stacks[(thread, *reversed(stack))] += spent

    def report(self, seconds: float, gc_clock: GcClock) -> str:
        total = sum(self.by_thread.values())
        own = Counter[str]()
        inclusive = Counter[str]()
        for stack, spent in self.stacks.items():
            own[stack[-1]] += spent
            for where in set(stack[1:]):
                inclusive[where] += spent
        out = io.StringIO()
        out.write(f"{seconds:.1f} s sampled, {total:.3f} CPU s in Python threads "
                  f"(process {time.process_time():.1f} s since start)\n")
        out.write("by thread: " + ", ".join(f"{t} {s:.3f}" for t, s in
                                            self.by_thread.most_common()) + "\n")
        out.write(f"collector: {gc_clock.words()}\n\n-- own (top 60) --\n")
        for where, spent in own.most_common(60):
            out.write(f"{100 * spent / total:6.2f}%  {where}\n")
        out.write("\n-- inclusive (top 150) --\n")
        for where, spent in inclusive.most_common(150):
            out.write(f"{100 * spent / total:6.2f}%  {where}\n")
        out.write("\n-- collapsed --\n")
        for stack, spent in self.stacks.most_common():
            out.write(";".join(stack) + f" {round(spent * 1e6)}\n")
        return out.getvalue()


class NoProfiler:
    """Only the threads' CPU and the collector (BENCH_PROFILE=threads)."""

    def start(self) -> None:
        pass

    def report(self, seconds: float, gc_clock: GcClock) -> str:
        return f"{seconds:.1f} s; collector: {gc_clock.words()}\n"


class ThreadProfiles:
    """cProfile on the event loop's thread and, through a task, on the table lane's."""

    def __init__(self) -> None:
        self.loop = cProfile.Profile()
        self.lane = cProfile.Profile()

    def start(self) -> None:
        """In the signal handler, on the loop's thread; the lane's through a task."""
        self.loop.enable()
        from games.platform import consumers

        consumers._TABLE_LANE.submit(self.lane.enable)

    def report(self, seconds: float, gc_clock: GcClock) -> str:
        from games.platform import consumers

        self.loop.disable()
        consumers._TABLE_LANE.submit(self.lane.disable).result()
        out = io.StringIO()
        out.write(f"{seconds:.1f} s profiled; collector: {gc_clock.words()}\n")
        for name, prof in (("event loop", self.loop), ("table lane", self.lane)):
            prof.dump_stats(OUT / f"profile-{os.getpid()}-{name.split()[-1]}.prof")
            out.write(f"\n===== {name} =====\n")
            stats = pstats.Stats(prof, stream=out)
            stats.sort_stats("tottime").print_stats(60)
            stats.sort_stats("cumulative").print_stats(120)
        return out.getvalue()


def thread_cpu() -> dict[str, tuple[float, float]]:
    """CPU seconds (user + system, system) of each thread of this process, by name."""
    names = {t.native_id: t.name.split("_")[0] for t in threading.enumerate()}
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, tuple[float, float]] = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = names.get(int(tid), f"native-{tid}")
        user, system = int(fields[11]) / ticks, int(fields[12]) / ticks
        had = out.get(name, (0.0, 0.0))
        out[name] = (had[0] + user + system, had[1] + system)
    return out


def count_frames(state: dict[str, Any]) -> None:
    """Count the table sockets' frames in and handlers run from now on."""
    from games.platform.consumers import TableConsumer

    counts = state["frames"] = [0, 0]
    receive = state.setdefault("receive", TableConsumer.receive)
    handle = state.setdefault("handle", TableConsumer._handle)

    def counted_receive(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts[0] += 1
        return receive(self, *args, **kwargs)

    def counted_handle(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts[1] += 1
        return handle(self, *args, **kwargs)

    TableConsumer.receive = counted_receive  # type: ignore[method-assign]
    TableConsumer._handle = counted_handle  # type: ignore[method-assign]


def install() -> None:
    state: dict[str, Any] = {}

    def on_start(*_: Any) -> None:
        gc_clock = GcClock()
        gc.callbacks.append(gc_clock)
        profiler = {"sample": Sampler, "threads": NoProfiler}.get(MODE, ThreadProfiles)()
        count_frames(state)
        state.update(gc=gc_clock, profiler=profiler, started=time.monotonic())
        state["cpu"] = thread_cpu()
        profiler.start()

    def on_stop(*_: Any) -> None:
        profiler = state.pop("profiler", None)
        if profiler is None:
            return
        gc.callbacks.remove(state["gc"])
        seconds = time.monotonic() - state["started"]
        if isinstance(profiler, Sampler):
            profiler.running = False
            time.sleep(3 * INTERVAL)
        if isinstance(profiler, ThreadProfiles):
            # Here, on the loop's thread: disabled from the report's thread it went on
            # counting the loop (the sockets' closing after the run with it).
            profiler.loop.disable()

        cpu = thread_cpu()
        frames = state.pop("frames")
        split = {name: spent - state["cpu"].get(name, (0, 0))[0] for name, (spent, _) in
                 cpu.items()}
        sys_split = {name: sys_ - state["cpu"].get(name, (0, 0))[1] for name, (_, sys_) in
                     cpu.items()}

        def write() -> None:
            per = {n: f"{1000 * split[n] / max(1, frames[0]):.2f}" for n in split}
            text = (f"{frames[0]} frames in (moves and chat), {frames[1]} handlers; ms per "
                    "frame in: " + ", ".join(f"{n} {per[n]}" for n in sorted(split)
                                             if split[n] > 0.001) + "\n"
                    "thread CPU s (user+sys, of it sys): " + ", ".join(
                f"{n} {split[n]:.3f} ({sys_split[n]:.3f})" for n in sorted(split)
                if split[n] > 0.001) + "\n" + profiler.report(seconds, state["gc"]))
            (OUT / f"profile-{os.getpid()}.txt").write_text(text)

        # Not in the signal handler: cProfile's report waits for the lane, which may wait
        # for the loop.
        threading.Thread(target=write, daemon=True).start()

    signal.signal(signal.SIGUSR1, on_start)
    signal.signal(signal.SIGUSR2, on_stop)


if __name__ == "__main__":
    install()
    from daphne.cli import CommandLineInterface

    sys.argv[0] = "daphne"
    sys.path.insert(0, os.getcwd())
    CommandLineInterface.entrypoint()
