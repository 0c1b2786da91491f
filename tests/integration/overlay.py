"""Overlay a generated Paddle build onto an installed Paddle, without touching it.

``python tests/integration/overlay.py SITE_PACKAGES_PADDLE GENERATED_PADDLE DEST``
builds ``DEST/paddle``: a tree of symbolic links to the installed package in
which every file of the generated build (``generated/paddle/...``) replaces
the file at the same path. With ``DEST`` first on ``sys.path`` Python imports
exactly what copying the generated files into site-packages would give, and
the installed Paddle stays pristine for the side-by-side runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def build_overlay(installed: Path, generated: Path, dest: Path) -> Path:
    """Link ``installed`` into ``dest/paddle``, real folders only on the paths
    that lead to a generated file; returns ``dest/paddle``."""
    replaced = {p.relative_to(generated) for p in generated.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    folders = {parent for path in replaced for parent in path.parents}
    root = dest / "paddle"
    root.mkdir(parents=True, exist_ok=False)
    for folder in sorted(folders, key=lambda p: len(p.parts)):
        (root / folder).mkdir(exist_ok=True)
        source = installed / folder
        for entry in source.iterdir() if source.is_dir() else ():
            relative = folder / entry.name
            if relative in folders or relative in replaced or entry.name == "__pycache__":
                continue
            os.symlink(entry, root / relative)
    for path in sorted(replaced):
        (root / path).write_bytes((generated / path).read_bytes())
    return root


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: python tests/integration/overlay.py SITE_PACKAGES_PADDLE GENERATED_PADDLE DEST")
    print(build_overlay(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
