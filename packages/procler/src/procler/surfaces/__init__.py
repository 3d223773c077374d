"""Other ways into the same commands than the CLI's argv: MCP, over stdio or HTTP.

`arguments` gives a command's arguments as JSON schemas and turns a JSON call into argv
(the REST listener uses it too); `tools` derives one tool per command declaration and runs a
call through the CLI's own parser and handlers; `mcp_server` wraps tools in the MCP SDK
(`procler mcp` over stdio, and the supervisor's `serve --mcp`, whose runners answer in the
supervisor: procler.supervisor.api.mcp_http); `local_call` runs one command the CLI runs
itself in a child process of a supervisor.
"""
