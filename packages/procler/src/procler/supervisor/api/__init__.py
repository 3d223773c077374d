"""The supervisor's HTTP surface: the command and event routes on the unix socket
(command_routes, event_routes), and `procler serve`'s TCP listener with its REST routes,
OpenAPI document, security layer and MCP endpoint. It calls the command table
(supervisor.commands), never the engine's runtimes for a command's work."""
