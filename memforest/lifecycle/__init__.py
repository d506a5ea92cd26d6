"""Lifecycle operations on persistent state: delete, forget, merge, export/import, re-materialise."""
