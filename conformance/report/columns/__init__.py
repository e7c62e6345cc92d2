"""Each suite's report value as columns of the report's matrix: one module per suite, each the only
place that knows both that suite's report and the matrix's cells."""
