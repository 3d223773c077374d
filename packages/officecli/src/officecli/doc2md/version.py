"""doc2md's version (its own module: the package's API imports it without a cycle)."""

__version__ = "0.1.0"
