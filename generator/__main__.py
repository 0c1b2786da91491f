import gc
import os
import sys

from .cli import main

code = main(prog=f"python -m {__package__}")
# A run leaves millions of objects behind, and the interpreter's exit would
# collect and free them all (~10 ms of a 0.25 s generate) for nothing: flush the
# output and leave at once, as mypy does. The collector is disabled first: main()
# restored its threshold, and the next allocation would start a collection.
gc.disable()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
