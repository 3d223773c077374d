"""design-diff's typed errors; every one is bad input (exit 2): fix the files or arguments."""

from __future__ import annotations

from agentcli.errors import InputError


class WorkbookError(InputError):
    """A workbook that cannot be read: not an xlsx, password-protected, damaged, too big."""

    code = "INVALID_WORKBOOK"
    default_suggestion = "pass an .xlsx/.xlsm file saved without a password"


class NoHeaderError(InputError):
    """A sheet without any table whose header could be recognised."""

    code = "NO_HEADER"
    default_suggestion = "pass --header-row N (the sheet row of the table header) or --sheet"


class KeyColumnError(InputError):
    """A key or ignored column that is not in the tables (or only in one of the files)."""

    code = "UNKNOWN_COLUMN"
    default_suggestion = "name a column exactly as its header reads (see the closest one)"


class PresetError(InputError):
    """A preset (or --severity-file) that is not valid YAML or does not follow the schema."""

    code = "INVALID_PRESET"
    default_suggestion = "fix the file at the given line; `design-diff presets` shows valid ones"


class SpecError(InputError):
    """An OpenAPI file that is not valid YAML/JSON, or a $ref that does not resolve."""

    code = "INVALID_OAS"
    default_suggestion = "fix the OpenAPI file at the given line (YAML or JSON, local $ref)"


class ApiSheetError(InputError):
    """An Excel API definition without a method and a path."""

    code = "NO_ENDPOINT"
    default_suggestion = "label the cells `Method`/`メソッド` and `Path`/`パス` with values beside"
