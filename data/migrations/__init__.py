"""Versioned SQL migrations for the SQLite store (``NNNN_name.sql``), applied by :mod:`data.migrate`."""
