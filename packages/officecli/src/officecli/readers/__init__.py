"""One reader per format, producing small document models; safety limits live here once."""
