"""Reference implementations kept as test oracles: slow, one-at-a-time versions of what the product
does in batches (the batched code must give the same results)."""
