"""The user cache as an attacker leaves it (issue 28): a CI cache restored from
another branch may hold any file under any entry's name. Entries are read
only as bounded regular files of plain data, checked before use; ``--full``
reads none; anything that fails a check is recomputed and rewritten."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import cache
from generator.cli import main
from generator.render.format import format_files
from generator.render.templates import RenderedFile
from tests.support import ROOT

LONG = f"X = f({', '.join(['argument'] * 30)})\n"  # a file the format stage changes


@pytest.fixture
def user_cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # this machine's key
    cache.key.cache_clear()
    yield tmp_path / "xdg" / "fleet-strategy-codegen"
    cache.key.cache_clear()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the project's inputs and generated package; cwd set to it."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "proto", copy / "proto")
    shutil.copytree(ROOT / "generated", copy / "generated", ignore=shutil.ignore_patterns("__pycache__", "*.lock", "build"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    monkeypatch.chdir(copy)
    return copy


def entries(root: Path, kind: str = "") -> list[Path]:
    return sorted(p for p in (root / kind).rglob("*") if p.is_file() and not p.name.startswith(".tmp-"))


def plant(entry: Path, payload: bytes, key: bytes | None = None) -> None:
    """What an attacker writes: any payload, its checksum recomputed (without
    ``key``: a plain sha256, all that one who has not this machine's key can make)."""
    entry.unlink()
    digest = hmac.digest(key, payload, "sha256") if key else hashlib.sha256(payload).digest()
    entry.write_bytes(digest + payload)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".lock")}


# -- reading an entry


def test_a_relative_xdg_cache_home_is_ignored_as_the_spec_says(tmp_path, monkeypatch):
    """A relative XDG_CACHE_HOME would put a cache folder in whatever folder the
    tool was started from (a user's repository); the XDG spec calls it invalid."""
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache.root() == tmp_path / "home" / ".cache" / "fleet-strategy-codegen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "absolute"))
    assert cache.root() == tmp_path / "absolute" / "fleet-strategy-codegen"



def test_an_entry_is_read_back_only_whole_and_as_written(user_cache):
    entry = cache.entry("outputs", "some input")
    assert entry is not None and entry.is_relative_to(user_cache) and cache.read(entry) is None
    cache.write(entry, b"payload")
    assert cache.read(entry) == b"payload"
    data = entry.read_bytes()
    entry.write_bytes(data[:-2])  # cut short
    assert cache.read(entry) is None
    entry.write_bytes(data[:32] + b"paYload")  # altered, checksum not recomputed
    assert cache.read(entry) is None
    entry.write_bytes(b"")
    assert cache.read(entry) is None


def test_a_fifo_entry_neither_blocks_nor_is_read(user_cache):
    entry = cache.entry("outputs", "fifo")
    entry.parent.mkdir(parents=True)
    os.mkfifo(entry)
    code = f"from generator import cache; from pathlib import Path; print(cache.read(Path({str(entry)!r})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # a blocking open would time out
    assert done.stdout.strip() == "None", done.stderr
    cache.write(entry, b"rewritten")  # replaced by a regular file
    assert cache.read(entry) == b"rewritten"


def test_a_link_is_not_followed_even_to_a_valid_entry_or_dev_zero(user_cache, tmp_path):
    entry = cache.entry("outputs", "link")
    elsewhere = tmp_path / "elsewhere"
    cache.write(elsewhere, b"a valid entry, but not here")
    entry.parent.mkdir(parents=True)
    entry.symlink_to(elsewhere)
    assert cache.read(entry) is None
    entry.unlink()
    entry.symlink_to("/dev/zero")
    assert cache.read(entry) is None
    cache.write(entry, b"rewritten")
    assert not entry.is_symlink() and cache.read(entry) == b"rewritten"
    assert elsewhere.read_bytes().endswith(b"a valid entry, but not here")  # nothing written through the link


def test_an_entry_larger_than_the_cap_is_refused_before_reading(user_cache, monkeypatch):
    entry = cache.entry("outputs", "huge")
    entry.parent.mkdir(parents=True)
    with open(entry, "wb") as handle:  # sparse: nothing to read but its size
        handle.truncate(cache.MAX_ENTRY_BYTES + 1)

    def no_reading(*args, **kwargs):
        raise AssertionError("an entry over the cap was opened for reading")

    monkeypatch.setattr(cache, "open", no_reading, raising=False)  # the module's reader
    assert cache.read(entry) is None
    monkeypatch.undo()
    # what is too large to be read back is not written either
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 100)
    other = cache.entry("outputs", "big")
    cache.write(other, b"x" * 100)
    assert not other.exists()


def test_a_directory_entry_is_ignored(user_cache):
    entry = cache.entry("outputs", "dir")
    entry.mkdir(parents=True)
    assert cache.read(entry) is None
    cache.write(entry, b"x")  # cannot replace a folder: ignored, costs time only
    assert cache.read(entry) is None


def test_fresh_reads_no_entry(user_cache):
    entry = cache.entry("outputs", "fresh")
    cache.write(entry, b"payload")
    with cache.fresh():
        assert cache.read(entry) is None
        cache.write(entry, b"written all the same")  # a fresh machine fills its cache too
    assert cache.read(entry) == b"written all the same"


# -- what the stages keep: nothing but the fast check's memo


def test_no_stage_reads_or_writes_the_cache_but_the_fast_check(project, user_cache, monkeypatch):
    """Formatted files, black's outputs, compiled templates, read YAML and
    the hooks module's outline are computed every run (none broke a budget
    when removed: docs/benchmarks.md): a run leaves only the memo, and a
    template is compiled in memory, never written anywhere."""
    import jinja2

    from generator.render import templates as render

    render.environment.cache_clear()  # as a new process: the templates compiled in it
    compiled: list[str] = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile",
                        lambda self, source, name=None, *a, **k: compiled.append(name) or real(self, source, name, *a, **k))
    format_files([RenderedFile("long.py", LONG, "python"), RenderedFile("piece.py", f"X = {' + '.join(['v'] * 40)}\n", "python")])
    assert not user_cache.exists()
    assert main(["generate"]) == 0 and compiled
    assert {p.relative_to(user_cache).parts[0] for p in entries(user_cache)} == {"outputs"}
    assert len(entries(user_cache)) == 1


# -- the command line


def test_full_reads_no_entry_and_a_planted_memo_does_not_fool_it(project, user_cache, monkeypatch, capsys):
    """--full computes everything from the inputs, as on a fresh machine: no
    entry is even opened. The attack: a pull request edits a generated module
    (and its hash in the manifest), and the CI cache, restored from another
    branch, holds a memo planted to say these inputs made that tree: it is not
    signed with this machine's key, so not even a plain check believes it."""
    from generator.output.manifest import output_digest

    assert main(["generate"]) == 0
    (memo,) = entries(user_cache)
    manifest = project / "generated" / "fleet_strategy.manifest.json"
    types = project / "generated" / "fleet_strategy" / "types.py"
    clean = types.read_text()
    edited = clean.replace("class ", "import os; os.system('id')\nclass ", 1)
    types.write_text(edited)
    data = json.loads(manifest.read_text())
    data["files"]["fleet_strategy/types.py"] = hashlib.sha256(edited.encode()).hexdigest()
    manifest.write_text(json.dumps(data))
    on_disk = {name: (project / "generated" / name).read_bytes() for name in [*data["files"], manifest.name]}
    lie = json.dumps({"output": output_digest(on_disk)}).encode()
    plant(memo, lie)  # checksummed, not signed with this machine's key: not read
    assert main(["check"]) == 1
    plant(memo, lie, key=os.urandom(32))  # signed on another machine (another branch's CI cache)
    assert main(["check"]) == 1
    assert "stale: generated/fleet_strategy/types.py" in capsys.readouterr().out
    # only one who holds this machine's key (outside the cache folder) could sign a lie
    plant(memo, lie, key=cache.key())
    assert main(["check"]) == 0 and main(["generate"]) == 0

    opened: list[str] = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):  # every read of the cache folder
        if str(path).startswith(str(user_cache)) and not flags & os.O_CREAT:
            opened.append(str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    assert main(["check"]) == 0 and opened == [str(memo)]  # the spy sees a read
    opened.clear()
    capsys.readouterr()
    assert main(["check", "--full"]) == 1 and opened == []
    assert "stale: generated/fleet_strategy/types.py" in capsys.readouterr().out
    assert main(["generate", "--full"]) == 0 and opened == []
    assert types.read_text() == clean
    assert main(["check", "--full"]) == 0 and opened == []
    assert main(["check"]) == 0 and opened == [str(memo)]  # rewritten by generate --full: read again


def test_a_cache_of_fifos_and_links_neither_hangs_nor_changes_a_run(project, user_cache):
    """Every entry replaced by a FIFO or a link to /dev/zero: generate and
    check run as with an empty cache (exit 0, the same files), and rewrite them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(user_cache.parent)}
    env.pop("FLEET_CODEGEN_NO_CACHE", None)

    def run(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "generator", *words], cwd=project, env=env,
                              capture_output=True, text=True, timeout=120)

    before = tree(project / "generated")
    assert run("generate").returncode == 0
    found = entries(user_cache)
    assert found
    for n, entry in enumerate(found):
        entry.unlink()
        if n % 2:
            os.mkfifo(entry)
        else:
            entry.symlink_to("/dev/zero")
    for command in ("generate", "check"):
        done = run(command)
        assert done.returncode == 0, done.stderr
    assert tree(project / "generated") == before
    assert all(p.is_file() and not p.is_symlink() for p in found)  # rewritten


def test_every_entry_is_plain_text(project, user_cache):
    """Nothing in the cache is code: every payload is JSON text, nothing that
    is unmarshalled, unpickled or imported."""
    assert main(["generate", "--full"]) == 0
    found = entries(user_cache)
    assert found
    for entry in found:
        payload = cache.read(entry)
        assert payload is not None
        assert set(json.loads(payload.decode("utf-8"))) == {"output"}
    source = "\n".join(p.read_text() for p in (ROOT / "generator").glob("*.py"))
    for word in ("marshal", "pickle", "shelve"):
        assert f"import {word}" not in source


def test_the_key_is_made_once_private_and_never_read_through_a_link(user_cache, tmp_path):
    """Entries are signed with a key kept outside the cache folder; a key file
    that is a link (or not 32 bytes) is not used, and then no entry is trusted."""
    path = cache.entry("outputs", "x")
    cache.write(path, b"payload")
    secret = tmp_path / "state" / "fleet-strategy-codegen" / "cache.key"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and len(secret.read_bytes()) == 32
    assert cache.read(path) == b"payload"
    elsewhere = tmp_path / "planted.key"
    elsewhere.write_bytes(secret.read_bytes())
    secret.unlink()
    secret.symlink_to(elsewhere)
    cache.key.cache_clear()
    assert cache.key() is None and cache.read(path) is None
    secret.unlink()
    secret.write_bytes(b"short")
    cache.key.cache_clear()
    assert cache.key() is None and cache.read(path) is None


def test_an_entry_is_never_written_through_a_linked_folder(user_cache, tmp_path):
    path = cache.entry("outputs", "y")
    outside = tmp_path / "outside"
    outside.mkdir()
    path.parent.parent.mkdir(parents=True)
    path.parent.symlink_to(outside)
    cache.write(path, b"payload")
    assert list(outside.iterdir()) == []
