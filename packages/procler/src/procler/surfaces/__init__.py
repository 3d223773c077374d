"""Other ways into the same commands than the CLI's argv: today the MCP server.

`arguments` gives a command's arguments as JSON schemas and turns a JSON call into argv
(the REST listener uses it too); `tools` derives one tool per command declaration and runs a call through the CLI's own
parser and handlers; `mcp_server` wraps that in the MCP SDK (imported only by `procler mcp`).
"""
