"""Use cases: the application layer between the adapters (API, MCP server, CLI) and the
algorithms (pipeline, retrieval, lifecycle) and the store. One module per job; a use case opens
the transaction (``db.tenant(...)`` / ``db.system()``) and calls store and algorithm functions."""
