"""The write path: accept, extract, canonicalise, route, insert, refresh; the job queue."""
