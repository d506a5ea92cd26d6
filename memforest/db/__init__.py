"""PostgreSQL access: embedded server, engine, schema, migrations."""
