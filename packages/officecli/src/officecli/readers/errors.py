"""Why a file cannot be read; cheap to import, so command declarations can list them."""

from __future__ import annotations

from agentcli.errors import AgentError, ExitCode


class ReaderError(AgentError):
    """A file that cannot be read (damaged, encrypted, unsupported, over a limit): bad
    input, so exit 2; doc2md reports it per file as convert.failed."""

    code = "CONVERT_FAILED"
    exit_code = ExitCode.USAGE
    default_suggestion = "open the file in its application and save it again"


class BrokenFileError(ReaderError):
    code = "BROKEN_FILE"
    default_suggestion = "the file is damaged or not what its extension says; re-export it"


class EncryptedFileError(ReaderError):
    code = "ENCRYPTED_FILE"
    default_suggestion = "remove the password protection and convert the saved copy"


class UnsupportedFormatError(ReaderError):
    code = "UNSUPPORTED_FORMAT"
    default_suggestion = "convert .docx, .xlsx, .xlsm, .xls, .pptx, .pdf or .drawio files"


class UnsafeFileError(ReaderError):
    code = "UNSAFE_FILE"
    default_suggestion = (
        "the file exceeds a safety limit (zip bomb or XML entities); do not trust it"
    )


class TooComplexError(UnsafeFileError):
    """A file within the bytes budgets that draws more than a complexity limit allows
    (operators on a page, nested forms, characters in a document)."""

    code = "INPUT_TOO_COMPLEX"
    default_suggestion = (
        "the file holds more than a limit allows (a page drawing too much, nesting too "
        "deep); raise the option the message names only if you trust the file"
    )
