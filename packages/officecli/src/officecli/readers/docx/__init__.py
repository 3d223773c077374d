"""Word documents (.docx, .docm): the reader, inline runs, and OMML math as LaTeX."""
