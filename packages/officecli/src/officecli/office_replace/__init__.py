"""office-replace: bulk text, sheet-name and file-name replacement across Office files."""
