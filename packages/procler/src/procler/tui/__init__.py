"""`procler tui`: a terminal UI for the person beside the agent, a thin client of the
supervisor. Every action is one of the CLI's commands (run through procler.surfaces.tools,
as MCP runs them), so the TUI has no feature the CLI lacks; closing it touches nothing."""
