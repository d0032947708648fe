"""TEST ONLY: registers Hidden Duel (:mod:`tests.e2e.hidden_rules`), a tiny game with a hidden
hand, in the bot process.  Loaded only through the testing-only hook of ``bot.py``::

    BOT_TEST_PLUGINS=tests.e2e.hidden_game python bot.py

Never imported by the test process itself, so the pytest session's registry is untouched.
"""
from rules import registry

from tests.e2e.hidden_rules import NAME, HiddenDuel

if NAME not in registry:
    registry.register(HiddenDuel())
