"""SIMULATIONS and fakes for tests and benchmarks; nothing here is used by the service itself.

* :mod:`memforest.testing.simulated_llm`: a SIMULATED OpenAI-compatible model server (latency,
  queueing and failures, no model at all).
"""
