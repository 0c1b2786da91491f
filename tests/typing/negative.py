"""Mistakes the type checkers must catch; each marked line must be an error."""

from __future__ import annotations

from fleet_strategy import DistributedStrategy

strategy = DistributedStrategy()
strategy.amp_configs = {"init_loss_scalling": 1024.0}  # E: misspelt config key
strategy.amp_configs = {"init_loss_scaling": "1024"}  # E: wrong value type
strategy.amp_configs = {"custom_white_list": "matmul"}  # E: str where a list is expected
strategy.amp = "True"  # E: str assigned to a bool property
strategy.nccl_comm_num = 1.5  # E: float assigned to an int property
strategy.hybrid_configs = {"mp_configs": {"sync_parm": True}}  # E: misspelt nested key
scale: str = strategy.amp_configs["init_loss_scaling"]  # E: getter returns float
strategy.recompute_configs = {"checkpoints": [1, 2]}  # E: list of int where list of str
