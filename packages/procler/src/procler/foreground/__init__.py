"""`procler up --attach`: the stack in the foreground, as honcho, foreman and `docker
compose up` run it. `lines` says what is printed; `session` follows the event stream,
starts the stack and stops it on Ctrl-C (a second one kills)."""
