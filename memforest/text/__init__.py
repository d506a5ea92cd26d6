"""Built-in natural-language tools (no model): sentences, lexicon, stemmer, dates, the rule-based
extractor, the hashed n-gram embedder and the extractive summariser algorithms.

Level 1: imports only the standard library, third-party packages and level-0 memforest modules.
The model ports in ``memforest.backends`` are thin adapters over this package.
"""
