"""Templates compiled by jinja2 (python tests/regen_goldens.py writes them; see render._Loader)."""
