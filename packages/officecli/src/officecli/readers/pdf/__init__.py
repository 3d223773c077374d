"""PDF: the reader, the expansion budget and its filters, layout, tables, text, OCR of pages."""
