"""PowerPoint presentations (.pptx, .pptm)."""
