"""Other ways into the same commands than the CLI's argv: MCP, over stdio or HTTP.

`arguments` is Procler's agentcli ToolSet: a command's arguments as JSON schemas, a JSON
call as argv (the REST listener uses it too), which commands are tools; `tools` runs a
call through the CLI's own parser and handlers, and adds `procler_wait_ready`;
`mcp_server` serves the tools with agentcli.mcp_server (`procler mcp` over stdio, and the
supervisor's `serve --mcp`, whose runners answer in the supervisor:
procler.supervisor.api.mcp_http); `local_call` runs one command the CLI runs itself in a
child process of a supervisor.
"""
