"""``python -m deep_research.cli``."""

from . import run

run()
