"""Making a benchmark's instruction count repeatable: the same deals, and collection only
where the code under test runs.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --callgrind-out-file=/dev/null .venv/bin/python bench/move_cost.py \\
        --tables 10 --moves 150 --deals 12345 --count-handlers

`seed_secrets` makes the `secrets` module deal from a seeded generator, so two versions of the
code play the very same games (game seeds, table codes and tokens come from it).
`callgrind_toggle` returns a function that switches callgrind's collection on or off
(`CALLGRIND_TOGGLE_COLLECT`): a one-line C library built with the machine's gcc against
valgrind's header, once per machine. Outside valgrind the switch does nothing.
"""

from __future__ import annotations

import ctypes
import random
import secrets
import string
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

_URLSAFE = string.ascii_letters + string.digits + "-_"


def seed_secrets(seed: int) -> None:
    """Every `secrets` function the site calls draws from one generator seeded with `seed`
    (never in the site itself: only a benchmark's own process)."""
    rng = random.Random(seed)

    def token_bytes(n: int | None = None) -> bytes:
        return rng.randbytes(32 if n is None else n)

    def token_hex(n: int | None = None) -> str:
        return token_bytes(n).hex()

    def token_urlsafe(n: int | None = None) -> str:
        size = 32 if n is None else n
        return "".join(rng.choice(_URLSAFE) for _ in range((4 * size + 2) // 3))

    secrets.token_bytes = token_bytes
    secrets.token_hex = token_hex
    secrets.token_urlsafe = token_urlsafe
    secrets.randbits = rng.getrandbits
    secrets.randbelow = rng.randrange
    secrets.choice = rng.choice


_SOURCE = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def callgrind_toggle() -> Callable[[], None]:
    """The switch of callgrind's collection, built on first use into the temporary directory."""
    built = Path(tempfile.gettempdir()) / "chudopoly-callgrind-toggle.so"
    if not built.exists():
        source = built.with_suffix(".c")
        source.write_text(_SOURCE)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(built), str(source)],
                       check=True)
    return ctypes.CDLL(str(built)).toggle
