"""Imported by Python at start-up when this folder is on PYTHONPATH: a process in which the
anthropic extra counts as not installed, whatever this machine has (CI installs every
extra, so that the provider tests run), for the tests of the "install the extra" message."""

import sys

sys.modules["langchain_anthropic"] = None  # import and find_spec both say: not installed
