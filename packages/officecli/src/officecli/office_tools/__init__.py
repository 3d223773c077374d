"""`office-tools`: what the four office tools share with an agent's host: their Agent
Skills and Copilot prompt files (`skills install`), and their MCP server (`mcp`)."""
