"""Execution contexts: where a process runs, one declaration each (`registry.CONTEXTS`).
Nothing above names one: it asks the context's kind."""
