"""Storage functions. Each takes a connection and ``tenant_id`` first and filters by tenant and forest."""
