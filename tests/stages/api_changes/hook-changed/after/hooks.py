"""Hand-written hooks of the demo package."""


def read_workers(strategy):
    return strategy.message.workers
