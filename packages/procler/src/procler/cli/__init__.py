"""Everything that runs in the CLI process: declarations, handlers, the supervisor's client."""
