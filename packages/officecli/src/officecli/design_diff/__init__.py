"""design-diff: keyed diff of Excel design workbooks, and an Excel API definition vs OpenAPI."""
