"""`manage.py build_speedups`: compile the platform's hot modules with mypyc into .speedups/
(games/platform/speedups.py says when they are used)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.platform import speedups


class Command(BaseCommand):
    help = "Compile games.platform.speedups.MODULES with mypyc into .speedups/."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            from mypy.version import __version__ as mypy_version
            from mypyc.build import mypycify
            from setuptools import Distribution
        except ImportError as error:
            raise CommandError(f"{error}: `uv sync` installs mypy and setuptools (the "
                               "speedups dependency group)") from error
        root = speedups.ROOT
        # Read before compiling: a source edited during the build then fails its hash.
        sources = {module: speedups.digest_of(speedups.source_of(module))
                   for module in speedups.MODULES}
        work = root / ".speedups-build"
        shutil.rmtree(work, ignore_errors=True)
        # mypyc names each module by its path from the working directory.
        os.chdir(root)
        extensions = mypycify(
            ["--ignore-missing-imports", "--follow-imports=silent",
             f"--cache-dir={work / 'mypy-cache'}",
             *(str(speedups.source_of(m).relative_to(root)) for m in speedups.MODULES)],
            opt_level="3", group_name=speedups.GROUP, target_dir=str(work / "c"))
        built = work / "lib"
        distribution = Distribution({"ext_modules": extensions, "script_args": [
            "build_ext", "--build-lib", str(built), "--build-temp", str(work / "obj")]})
        distribution.parse_command_line()
        distribution.run_commands()
        (built / speedups.MANIFEST).write_text(json.dumps({
            "python": sys.version.split()[0],
            "extension_suffix": speedups.extension_suffix(),
            "mypy": mypy_version,
            "sources": sources,
        }, indent=2) + "\n")
        reason = speedups.stale_reason(built)
        if reason is not None:
            raise CommandError(f"The build is not usable: {reason}.")
        # The new build replaces the old whole (a running process keeps the files it loaded).
        old = root / ".speedups-old"
        shutil.rmtree(old, ignore_errors=True)
        if speedups.BUILD_DIR.exists():
            speedups.BUILD_DIR.rename(old)
        built.rename(speedups.BUILD_DIR)
        shutil.rmtree(old, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
        self.stdout.write(f"Compiled {len(sources)} modules into {speedups.BUILD_DIR}.")
