"""The platform's hot modules compiled to C extensions by mypyc, used only when built from the
sources as they are now.

`manage.py build_speedups` compiles MODULES into BUILD_DIR (.speedups/, gitignored), with a
manifest of the SHA-256 of each module's source as the build read it. At start-up
(`games/platform/__init__.py`, before any of them is imported) `install()` puts a finder first
on `sys.meta_path` that imports them from there, when every source still has its hash, the
build is for this interpreter and its shared runtime (mypyc's `<group>__mypyc` module, which
the compiled modules import by name) loads. Otherwise the sources are imported as they are,
after one warning: a compiled module never shadows an edited source. Without a build nothing
changes, and CHUDOPOLY_SPEEDUPS=0 imports the sources though a build matches (to compare the
two in the same tree).

The modules are compiled together, as one group: a call from one to another is bound in C, so
one of them edited makes the whole build stale, not that module alone. A test that replaces a
function of a compiled module (monkeypatch) is not seen by the calls inside the group.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

logger = logging.getLogger(__name__)

# What a move's push runs most, pure Python that compiles as it is (docs/performance.md, "How a
# push is made now").
MODULES = (
    "games.platform.swaps",
    "games.platform.bounded_cache",
)
GROUP = "chudopoly_speedups"
RUNTIME = f"{GROUP}__mypyc"
ROOT = Path(__file__).resolve().parents[2]
BUILD_DIR = ROOT / ".speedups"
MANIFEST = "manifest.json"
SWITCH = "CHUDOPOLY_SPEEDUPS"


def source_of(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_suffix() -> str:
    """How this interpreter's extension modules end (".cpython-311-x86_64-linux-gnu.so")."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_file(build_dir: Path, module: str) -> Path:
    parts = module.split(".")
    return build_dir.joinpath(*parts[:-1], parts[-1] + extension_suffix())


class _CompiledFinder:
    """Finds the compiled modules (and their shared runtime) in the build, and nothing else."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def stale_reason(build_dir: Path = BUILD_DIR) -> str | None:
    """Why the build in `build_dir` may not be used, or None when it may."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        return f"its manifest cannot be read ({error})"
    if manifest.get("extension_suffix") != extension_suffix():
        return f"it was built for another Python ({manifest.get('python')})"
    sources = manifest.get("sources", {})
    if tuple(sources) != MODULES:
        return "it compiled other modules than games.platform.speedups.MODULES"
    for module, digest in sources.items():
        try:
            now = digest_of(source_of(module))
        except OSError as error:
            return f"its source cannot be read ({error})"
        if now != digest:
            return f"{source_of(module).relative_to(ROOT)} changed since"
    for module in (RUNTIME, *MODULES):
        if not compiled_file(build_dir, module).is_file():
            return f"{compiled_file(build_dir, module).relative_to(build_dir)} is missing"
    return None


def install(build_dir: Path = BUILD_DIR) -> bool:
    """Import MODULES compiled from now on, when `build_dir` holds a build of their sources as
    they are; True when it does. Called before any of them is imported."""
    if os.environ.get(SWITCH, "1") == "0" or not (build_dir / MANIFEST).exists():
        return False
    reason = stale_reason(build_dir)
    if reason is None and any(module in sys.modules for module in MODULES):
        reason = "a module was imported before"
    finder = _CompiledFinder({module: compiled_file(build_dir, module)
                              for module in (RUNTIME, *MODULES)})
    if reason is None:
        sys.meta_path.insert(0, finder)  # type: ignore[arg-type]
        try:
            importlib.import_module(RUNTIME)
        except ImportError as error:
            sys.meta_path.remove(finder)  # type: ignore[arg-type]
            reason = f"its runtime does not load ({error})"
    if reason is not None:
        logger.warning("Not using the compiled modules in %s: %s. The Python sources run; "
                       "`manage.py build_speedups` builds them again.", build_dir, reason)
        return False
    return True


def in_use() -> bool:
    """Whether the compiled modules are the ones imported (the benches print it)."""
    return all((importlib.import_module(module).__file__ or "").endswith(extension_suffix())
               for module in MODULES)


def label() -> str:
    """One word for a bench's line: "compiled" or "pure"."""
    return "compiled" if in_use() else "pure"
