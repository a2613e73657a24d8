"""Benchmarks apart from the product: the generator of large campaigns, the
benchmark that prints figures, the side-by-side peer, the shell and page timings."""
