"""Templates compiled by jinja2 (python tests/goldens/regen.py writes them; see render._Loader)."""
