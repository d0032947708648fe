"""End-to-end tests: the real bot.py process against a local Discord twin on loopback."""
