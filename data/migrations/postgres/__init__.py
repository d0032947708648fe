"""PostgreSQL twins of the SQLite migrations (``data.migrations``), applied by
:func:`data.migrate.apply_pg_migrations`."""
