"""Benchmarks and benchmark helpers for MemForest."""
