"""A command the CLI runs itself (logs, config explain, define ...), asked of a
supervisor over HTTP (REST, `serve --mcp`): the supervisor runs this module as a child
process, `python -m procler.surfaces.local_call`, with the request's argv as a JSON list
on stdin; it parses and runs it as the CLI does (agentcli.tools.ToolSet.run_argv) and
writes `{"envelope": ..., "exit_code": N}` as one JSON line on stdout.

The handlers are the CLI's (procler.cli); the supervisor never imports them, so a command
runs the same here as from a terminal, in its own process.
"""

import json
import sys


def main() -> "None":
    from procler.surfaces.arguments import TOOLS

    argv = json.loads(sys.stdin.read())
    envelope, code = TOOLS.run_argv([str(word) for word in argv])
    sys.stdout.write(json.dumps({"envelope": envelope, "exit_code": code}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
