"""fieldcheck: rule-based consistency checks for tabular business data."""
