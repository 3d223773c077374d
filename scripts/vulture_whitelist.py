"""Names vulture cannot see used (`make lint` runs it over the sources, tests and benches).

Each entry is a true false positive; the comment above each group says why. Dead code is
removed, never listed here. This file is read by vulture only, never run or imported.
"""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# Handlers named by string in a command declaration ("module:function"): agentcli resolves
# them with __import__ when the command runs (procler, officecli, agentcli and its tests).
capabilities_handler
forward_if_running
list_processes
help_llm
namespace_list
import_file
schema_command
excel_handler
spec_handler
presets_handler
validate_handler
check_rules_handler
list_rules_handler
init_handler
schema_handler
boom
interrupt
# Context declarations named by string in procler.contexts.registry.CONTEXTS ("module:NAME",
# loaded when first asked; DOCKER is also imported by a test).
LOCAL
PODMAN
# A reader named by string in the format registry (officecli.readers.registry).
read_xls
# The glossary App(terms="procler.recipe_states:GLOSSARY") imports when capabilities asks.
GLOSSARY

# Type aliases, a TypeVar and a Protocol used only in string annotations (the hot modules
# keep typing out of their run-time imports), and an import kept for those annotations.
ArgType
Vector
V
KeyedApp
ServerRequestContext

# Fields read through vars() or dataclasses.asdict (the counts' text, a result's answer).
_.list_items
list_items
duration_seconds

# Options and callbacks set on library objects, which the library reads: RE2 options,
# shlex, ruamel's emitter, expat's handlers, logging's record flags, openpyxl and
# python-pptx/docx properties in tests, a tarfile link, uvicorn's lifespan, Textual widgets.
_.log_errors
_.never_capture
_.never_nl
_.case_sensitive
_.max_mem
_.whitespace_split
_.default_flow_style
_.explicit_start
_.buffer_text
_.buffer_size
_.StartDoctypeDeclHandler
_.EntityDeclHandler
_.UnparsedEntityDeclHandler
_.ExternalEntityRefHandler
_.StartElementHandler
_.EndElementHandler
_.CharacterDataHandler
_.logThreads
_.logProcesses
_.logMultiprocessing
_.number_format
_.sheet_state
_.has_title
_.different_first_page_header_footer
_.odd_and_even_pages_header_footer
_.linkname
_.lifespan
_.auto_scroll
_.cursor_blink
_._cursor_visible
_.__traceback__

# Hooks a framework calls by their names: a module's __getattr__ (PEP 562), HTMLParser's
# handle_*, http.server's do_GET and log_message, logging.Formatter's formatStack,
# Textual's BINDINGS, on_* handlers, action_* methods and a command provider's discover,
# pytest's pytestmark and anyio's anyio_backend fixture, and autouse fixtures (which no
# test names).
__getattr__
handle_starttag
handle_data
do_GET
log_message
formatStack
BINDINGS
on_mount
on_unmount
_nothing_left
on_data_table_row_highlighted
on_button_pressed
on_input_submitted
on_option_list_option_selected
discover
action_details
action_filter
action_graph
action_help
action_newer_logs
action_next_match
action_older_logs
action_previous_match
action_reload
action_restart
action_search
action_select
action_start
action_stop
action_toggle_follow
action_toggle_previous_run
action_toggle_stopped
action_toggle_wrap
action_namespace
action_recipe
action_scale
action_send
action_snippet
action_answer
action_cancel
action_close
pytestmark
anyio_backend
no_arrow_in_this_process

# Called by Python, not by name: an instance called as a function (the test kit's InChild),
# and the keywords of a Protocol that types a plugin's fixture (pytest-textual-snapshot's
# snap_compare, called with terminal_size= and run_before=).
__call__
terminal_size
run_before
