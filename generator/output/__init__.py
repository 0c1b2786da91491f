"""The writer (the pipeline's last stage): compare the generated files with
the output folder (``plan``), write them all or nothing (``apply``), one run
at a time (``locked``), and the manifest that records what was written.

Modules, lowest first: ``files`` (what a path under the output folder is:
the tool's, by its marker; name and folder checks), ``manifest`` (its text,
and its typed, bounded reading), ``lock``, ``plan`` (compare, and the fast
check), ``write`` (staging, renames, signals). The package imports only
``generator.errors`` and the package's ``COMMAND``, plus the standard
library, msgspec and (in ``lock``, when a lock is taken) filelock.

Trust: nothing found in the output folder is an instruction. The staging
folder, the lock file, leftovers and the manifest are data, checked before
use; the tool writes only the paths the inputs generate and deletes only
its own marked files that the inputs no longer produce."""
