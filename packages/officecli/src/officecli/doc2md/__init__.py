"""doc2md: Office, PDF and draw.io files to Markdown, with a loss report."""

__version__ = "0.1.0"
