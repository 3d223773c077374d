"""Execution contexts: where a process runs (local, docker). Nothing above knows which."""
