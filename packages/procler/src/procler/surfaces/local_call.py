"""A command the CLI runs itself (logs, config explain, define ...), asked of a
supervisor over HTTP (REST, `serve --mcp`): the supervisor runs this module as a child
process, `python -m procler.surfaces.local_call`, with the request's argv as a JSON list
on stdin; it parses and runs it as the CLI does (agentcli.tools.ToolSet.run_argv) and
writes `{"exit_code": N, "error_code": CODE}` as a first JSON line on stdout, then the
envelope: the supervisor can pass it on as bytes (REST), without holding it as objects.

The handlers are the CLI's (procler.cli); the supervisor never imports them, so a command
runs the same here as from a terminal, in its own process.
"""

import json
import sys


def main() -> "None":
    from procler.surfaces.arguments import TOOLS

    argv = json.loads(sys.stdin.read())
    envelope, code = TOOLS.run_argv([str(word) for word in argv])
    head = {"exit_code": code, "error_code": envelope.get("error_code")}
    sys.stdout.write(json.dumps(head) + "\n" + json.dumps(envelope) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
