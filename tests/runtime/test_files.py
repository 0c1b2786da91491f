"""save_to_prototxt and load_from_prototxt against the file system: the save
replaces the file in one step whatever fails on the way (faults injected at
every step, a full disk, a file size limit), and every load failure is a
ValueError naming the file that changes nothing."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from fleet_strategy import DistributedStrategy, runtime

OLD_TEXT = "amp: true\nrecompute: true\n"
posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes, FIFOs and devices")


def configured() -> DistributedStrategy:
    strategy = DistributedStrategy()
    strategy.lars = True
    strategy.amp_configs = {"custom_white_list": [f"op_{i}" for i in range(200)], "init_loss_scaling": 3.0}
    return strategy


def old_file(folder: Path) -> Path:
    path = folder / "strategy.prototxt"
    path.write_text(OLD_TEXT, encoding="utf-8")
    return path


def names_in(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def _in(folder: Path, descriptor: int) -> bool:
    """Whether an open file descriptor is a file in ``folder`` (Linux: /proc)."""
    try:
        return os.path.dirname(os.readlink(f"/proc/self/fd/{descriptor}")) == str(folder)
    except OSError:
        return False


# ------------------------------------------------------------ saving: faults


def test_a_full_disk_part_way_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reviewer's case: the write stops with ENOSPC after some bytes."""
    if not os.path.exists("/proc/self/fd"):
        pytest.skip("needs /proc to tell the save's file descriptor")
    path = old_file(tmp_path)
    real_write = os.write
    written: list[int] = []

    def full_disk(descriptor: int, data: Any) -> int:
        if not _in(tmp_path, descriptor):
            return real_write(descriptor, data)
        if written:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(real_write(descriptor, bytes(data[:100])))  # a part goes to disk, then the disk is full
        return written[-1]

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError) as caught:
        configured().save_to_prototxt(path)
    monkeypatch.undo()
    assert caught.value.errno == errno.ENOSPC and written == [100]
    assert path.read_text(encoding="utf-8") == OLD_TEXT
    assert names_in(tmp_path) == ["strategy.prototxt"]  # no temporary file left
    loaded = DistributedStrategy()
    loaded.load_from_prototxt(path)
    assert loaded.amp and loaded.recompute


# Every file-system step of the save, as runtime.write_atomically takes them.
STEPS = ("open", "fchmod", "write", "fsync", "close", "replace")


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("fault", [OSError(errno.EIO, "injected"), KeyboardInterrupt()], ids=["OSError", "interrupt"])
def test_a_fault_at_any_step_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, fault: BaseException
) -> None:
    if step == "fchmod" and not hasattr(os, "fchmod"):
        pytest.skip("no os.fchmod here")
    path = old_file(tmp_path)
    real: Callable[..., Any] = getattr(os, step)
    calls: list[str] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        if step == "open" and str(tmp_path) not in os.fsdecode(args[0]):
            return real(*args, **kwargs)  # (only the save's own files)
        calls.append(step)
        if step == "close":
            real(*args, **kwargs)  # the descriptor is gone either way
        raise fault

    monkeypatch.setattr(os, step, failing)
    with pytest.raises(type(fault)):
        configured().save_to_prototxt(path)
    monkeypatch.undo()
    assert calls, f"the save never called os.{step}"
    assert path.read_text(encoding="utf-8") == OLD_TEXT
    assert names_in(tmp_path) == ["strategy.prototxt"]


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_a_file_size_limit_leaves_the_old_file(tmp_path: Path) -> None:
    """A real limit, in a child process (SIGXFSZ ignored, so the write fails with EFBIG)."""
    path = old_file(tmp_path)
    script = textwrap.dedent(
        f"""
        import errno, resource, signal
        from fleet_strategy import DistributedStrategy
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        strategy = DistributedStrategy()
        strategy.amp_configs = {{"custom_white_list": ["op_%d" % i for i in range(500)]}}
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))
        try:
            strategy.save_to_prototxt({str(path)!r})
        except OSError as exc:
            print("refused", errno.errorcode[exc.errno])
        else:
            print("saved")
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(runtime.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.strip() == "refused EFBIG", result.stderr
    assert path.read_text(encoding="utf-8") == OLD_TEXT
    assert names_in(tmp_path) == ["strategy.prototxt"]


# ------------------------------------------------------------ saving: what is kept


def test_the_saved_file_is_the_text_and_nothing_else_is_left(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    strategy = configured()
    strategy.save_to_prototxt(path)
    assert path.read_text(encoding="utf-8") == str(strategy.strategy)
    assert names_in(tmp_path) == ["strategy.prototxt"]
    strategy.save_to_prototxt(str(tmp_path / "new.prototxt"))  # a str path, a new file
    assert names_in(tmp_path) == ["new.prototxt", "strategy.prototxt"]


@posix_only
def test_the_old_files_mode_is_kept_and_a_new_file_gets_opens(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    path.chmod(0o640)
    configured().save_to_prototxt(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    umask = os.umask(0o022)
    os.umask(umask)
    fresh = tmp_path / "fresh.prototxt"
    configured().save_to_prototxt(fresh)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


@posix_only
def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = old_file(tmp_path)
    link = tmp_path / "link.prototxt"
    link.symlink_to(real.name)
    configured().save_to_prototxt(link)
    assert link.is_symlink() and real.read_text(encoding="utf-8") == str(configured().strategy)
    assert names_in(tmp_path) == ["link.prototxt", "strategy.prototxt"]


@posix_only
def test_a_device_is_written_in_place_and_a_folder_refused(tmp_path: Path) -> None:
    configured().save_to_prototxt(os.devnull)  # no file to keep: written, not replaced
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    with pytest.raises(IsADirectoryError):
        configured().save_to_prototxt(tmp_path)
    missing = tmp_path / "no" / "such" / "folder.prototxt"
    with pytest.raises(FileNotFoundError, match="folder.prototxt"):  # names the file asked for
        configured().save_to_prototxt(missing)


def test_a_save_during_assignments_writes_one_state(tmp_path: Path) -> None:
    """The text is of one state: each saved file holds one assignment whole."""
    strategy = DistributedStrategy()
    assigned = [[f"w{i}_{k}" for k in range(30)] for i in range(50)]
    done = threading.Event()

    def assign() -> None:
        while not done.is_set():
            for names in assigned:
                strategy.amp_configs = {"custom_white_list": names, "custom_black_list": names[:1]}

    writer = threading.Thread(target=assign)
    writer.start()
    try:
        for index in range(100):
            path = tmp_path / f"s{index}.prototxt"
            strategy.save_to_prototxt(path)
            loaded = DistributedStrategy()
            loaded.load_from_prototxt(path)
            white = list(loaded.strategy.amp_configs.custom_white_list)
            assert white == [] or white in assigned, white
            assert list(loaded.strategy.amp_configs.custom_black_list) == white[:1]
    finally:
        done.set()
        writer.join()


# ------------------------------------------------------------ loading: failures


def test_a_missing_file_is_a_value_error_and_still_a_file_not_found_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.prototxt"
    with pytest.raises(ValueError) as caught:
        DistributedStrategy().load_from_prototxt(missing)
    error = caught.value
    assert isinstance(error, FileNotFoundError) and isinstance(error, runtime.TextFormatFileError)
    assert error.errno == errno.ENOENT and error.filename == str(missing) and str(missing) in str(error)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"amp: true\nrecompute: \xff\xfe\n", r":2: not UTF-8 text \(invalid start byte at byte 21\)"),
        (b"amp: true\nrecompute: maybe\n", r": 2:12 : "),  # protobuf's parse error, with its line
        (b"amp_configs {\n", r": .*"),
        (b"not_a_field: 1\n", r": 1:1 : .*not_a_field"),
    ],
    ids=["invalid UTF-8", "bad value", "truncated", "unknown field"],
)
def test_a_file_that_does_not_load_is_a_value_error_naming_it_and_changes_nothing(
    tmp_path: Path, content: bytes, words: str
) -> None:
    path = tmp_path / "bad.prototxt"
    path.write_bytes(content)
    strategy = configured()
    before = strategy.strategy.SerializeToString()
    with pytest.raises(runtime.TextFormatFileError, match=f"^{path}{words}"):
        strategy.load_from_prototxt(path)
    assert strategy.strategy.SerializeToString() == before


@posix_only
def test_folders_pipes_and_devices_are_refused_without_reading(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.prototxt"
    os.mkfifo(pipe)
    outcome: list[BaseException | None] = []

    def load() -> None:  # a FIFO nobody writes to: opening it to read would wait forever
        try:
            DistributedStrategy().load_from_prototxt(pipe)
        except BaseException as exc:
            outcome.append(exc)
        else:
            outcome.append(None)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert outcome, "load_from_prototxt blocked on a pipe"
    assert isinstance(outcome[0], ValueError) and f"{pipe}: a pipe" in str(outcome[0])
    with pytest.raises(ValueError, match=f"^{tmp_path}: a folder"):
        DistributedStrategy().load_from_prototxt(tmp_path)
    with pytest.raises(ValueError, match="not a regular file"):
        DistributedStrategy().load_from_prototxt(os.devnull)


def test_a_load_merges_as_the_text_says(tmp_path: Path) -> None:
    """Parsed aside, then merged in one step: the same result as merging the text."""
    from google.protobuf import text_format

    path = tmp_path / "s.prototxt"
    text = "recompute: true\namp_configs { custom_white_list: 'b' init_loss_scaling: 8 }\nlars: false\n"
    path.write_text(text, encoding="utf-8")
    strategy = configured()
    expected = type(strategy.strategy)()
    expected.CopyFrom(strategy.strategy)
    text_format.Merge(text, expected)
    strategy.load_from_prototxt(path)
    assert strategy.strategy == expected
    assert list(strategy.strategy.amp_configs.custom_white_list)[-1] == "b"  # repeated fields append, as Merge does
