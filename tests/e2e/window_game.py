"""TEST ONLY: registers the window test game (``tests/test_host_hidden.py``: seat 0 plays "go",
seat 1 may get a secret response window) in the bot process, through the testing-only hook of
``bot.py``::

    BOT_TEST_PLUGINS=tests.e2e.window_game python bot.py

Never imported by the test process itself, so the pytest session's registry is untouched.
"""
import sys
from pathlib import Path

from rules import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: test_host_hidden

from test_host_hidden import WindowGame  # noqa: E402

if "window_test" not in registry:
    registry.register(WindowGame())
