"""One instance shared between threads: every assignment is applied whole and
every read is of one state (the contract in the class docs' Threads section).

The thread switch interval is made tiny while these run, so the threads
interleave as often as the interpreter allows."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fleet_strategy import DistributedStrategy

THREADS = 8
ROUNDS = 1000


@pytest.fixture(autouse=True)
def switch_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def run_threads(writers: list[Callable[[], None]], read: Callable[[], None]) -> None:
    """Run the writers and, until they are done, ``read`` in two more threads;
    re-raise the first assertion any of them made."""
    errors: list[BaseException] = []
    done = threading.Event()

    def guard(work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)
                done.set()

        return run

    def reading() -> None:
        while not done.is_set():
            read()

    readers = [threading.Thread(target=guard(reading)) for _ in range(2)]
    workers = [threading.Thread(target=guard(work)) for work in writers]
    for thread in readers + workers:
        thread.start()
    for thread in workers:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    if errors:
        raise errors[0]


def amp_value(writer: int, round_: int) -> dict[str, Any]:
    """Assignment ``round_`` of ``writer``: three keys that belong together."""
    return {
        "custom_white_list": [f"w{writer}_{round_}_{i}" for i in range(writer % 3 + 1)],
        "custom_black_list": [f"b{writer}_{round_}"],
        "init_loss_scaling": float(writer * ROUNDS + round_),
    }


def test_config_assignments_from_many_threads_apply_whole() -> None:
    """8 threads x 1000 assignments of different lists: every read sees exactly
    one assignment (no two lists concatenated, no keys of two assignments),
    and the last assignment wins whole."""
    strategy = DistributedStrategy()
    initial = {key: strategy.amp_configs[key] for key in ("custom_white_list", "custom_black_list", "init_loss_scaling")}  # type: ignore[literal-required]
    reads = [0]

    def writer(index: int) -> Callable[[], None]:
        def work() -> None:
            for round_ in range(ROUNDS):
                strategy.amp_configs = amp_value(index, round_)  # type: ignore[assignment]

        return work

    def read() -> None:
        view = strategy.amp_configs
        seen = {"custom_white_list": view["custom_white_list"], "custom_black_list": view["custom_black_list"],
                "init_loss_scaling": view["init_loss_scaling"]}
        reads[0] += 1
        if seen == initial:
            return
        scale = int(seen["init_loss_scaling"])
        assert seen == amp_value(*divmod(scale, ROUNDS)), seen

    run_threads([writer(i) for i in range(THREADS)], read)
    final = strategy.amp_configs
    scale = int(final["init_loss_scaling"])
    expected = amp_value(*divmod(scale, ROUNDS))
    assert {key: final[key] for key in expected} == expected  # type: ignore[literal-required]
    assert scale % ROUNDS == ROUNDS - 1  # some thread's last assignment
    assert reads[0] > 0


def test_hybrid_configs_and_its_order_change_together() -> None:
    """``order`` lives outside the message: both change under one lock."""
    strategy = DistributedStrategy()
    orders = [["dp", "pp", "sharding", "sep", "cp", "mp"][i:] + ["dp", "pp", "sharding", "sep", "cp", "mp"][:i] for i in range(6)]

    def writer(index: int) -> Callable[[], None]:
        def work() -> None:
            for round_ in range(ROUNDS // 4):
                strategy.hybrid_configs = {"dp_degree": index + 1, "mp_degree": round_ + 1, "order": orders[index % 6]}

        return work

    def read() -> None:
        view = strategy.hybrid_configs
        assert view["dp_degree"] == 1 or view["mp_degree"] >= 1

    run_threads([writer(i) for i in range(6)], read)
    final = strategy.hybrid_configs
    assert strategy.hybrid_parallel_order == orders[final["dp_degree"] - 1]
    assert final["mp_degree"] == ROUNDS // 4


def test_build_strategy_assignments_apply_whole() -> None:
    strategy = DistributedStrategy()

    def writer(index: int) -> Callable[[], None]:
        def work() -> None:
            for _ in range(ROUNDS // 4):
                strategy.build_strategy = {"fuse_bn_act_ops": bool(index % 2), "debug_graphviz_path": f"p{index}"}  # type: ignore[assignment]

        return work

    def consistent(options: Any) -> bool:
        path = options.debug_graphviz_path
        return path == "" or options.fuse_bn_act_ops == bool(int(path[1:]) % 2)

    def read() -> None:
        assert consistent(strategy.build_strategy)  # a detached copy: one state

    run_threads([writer(i) for i in range(THREADS)], read)
    assert strategy.strategy.build_strategy.debug_graphviz_path and consistent(strategy.strategy.build_strategy)


def test_plain_options_and_configs_assigned_together_are_all_kept() -> None:
    """Plain options take no lock; no config assignment undoes them."""
    strategy = DistributedStrategy()
    names = ["amp", "recompute", "lars", "lamb", "dgc", "pipeline", "sharding", "asp"]

    def flag_writer(name: str) -> Callable[[], None]:
        def work() -> None:
            for round_ in range(ROUNDS):
                setattr(strategy, name, round_ % 2 == 0)

        return work

    def config_writer() -> None:
        for round_ in range(ROUNDS):
            strategy.amp_configs = amp_value(0, round_)  # type: ignore[assignment]
            strategy.recompute_configs = {"checkpoints": [f"c{round_}"]}

    run_threads([flag_writer(name) for name in names] + [config_writer], lambda: None)
    assert all(getattr(strategy, name) is False for name in names)  # each one's last assignment: round 999
    assert strategy.recompute_configs["checkpoints"] == [f"c{ROUNDS - 1}"]
