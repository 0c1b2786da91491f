import sys

from .cli import main

sys.exit(main(prog=f"python -m {__package__}"))
