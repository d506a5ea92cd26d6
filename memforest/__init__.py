"""MemForest: long-term memory for LLM agents on PostgreSQL + pgvector."""

__version__ = "0.1.0"
