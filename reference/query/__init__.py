"""Query engine: retrieval over the index, the spec's ranking formula, filters, dedup and explanations."""
