"""Realistic user code: must pass mypy --strict and pyright --strict."""

from __future__ import annotations

from fleet_strategy import DistributedStrategy, UnknownConfigKeyError, set_default_strict
from fleet_strategy.types import AMPConfigDict, AMPConfigInput, HybridConfigInput


def configure(strict: bool = False) -> DistributedStrategy:
    set_default_strict(strict)
    strategy = DistributedStrategy()
    strategy.amp = True
    amp: AMPConfigInput = {"init_loss_scaling": 1024.0, "custom_white_list": ["matmul"], "incr_every_n_steps": 500}
    strategy.amp_configs = amp
    strategy.recompute = True
    strategy.recompute_configs = {"checkpoints": ("x", "y"), "enable_offload": False}
    hybrid: HybridConfigInput = {"dp_degree": 2, "mp_degree": 2, "mp_configs": {"sync_param": False}}
    strategy.hybrid_configs = hybrid
    strategy.fs_client_param = {"uri": "hdfs://x", "user": "u"}
    strategy.conv_workspace_size_limit = 1024
    strategy.last_comm_group_size_MB = 4  # an int is a valid float
    strategy.sharding_configs = {"sharding_degree": 4, "segment_anchors": ["a"]}
    return strategy


def read(strategy: DistributedStrategy) -> tuple[float, list[str], bool, int, str]:
    amp: AMPConfigDict = strategy.amp_configs
    scale: float = amp["init_loss_scaling"]
    white: list[str] = amp["custom_white_list"]
    sync: bool = strategy.hybrid_configs["mp_configs"].sync_param
    tables = len(strategy.sparse_table_configs)
    uri: str = strategy.fs_client_param.uri
    return scale, white, sync, tables, uri


def main() -> None:
    strategy = configure()
    try:
        strategy.amp_configs = {"init_loss_scaling": 2.0}
    except UnknownConfigKeyError:
        raise
    options = strategy.build_strategy
    options.enable_inplace = True
    strategy.build_strategy = options
    strategy.save_to_prototxt("strategy.prototxt")
    print(read(strategy), repr(strategy)[:10], strategy.hybrid_parallel_order)


if __name__ == "__main__":
    main()
