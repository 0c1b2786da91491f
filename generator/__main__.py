from .cli import run

run(prog=f"python -m {__package__}")
