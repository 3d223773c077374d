"""Copilot prompt files (`.github/prompts/*.prompt.md`) for the everyday office tasks, in
English and Japanese: each runs the right command, a dry run before anything is written.

`office-tools skills install --prompts` writes them into a project; this repository's own
`.github/prompts/` is the same rendering (a test compares), and a test parses every command
line in them (with each `${input:NAME:EXAMPLE}` as its example) with the tool's parser.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

FOLDER = ".github/prompts"
MANIFEST = ".office-tools.installed.json"


@dataclass(frozen=True)
class Prompt:
    name: str  # the file's stem and the /command in chat
    description: str
    argument_hint: str
    body: str

    def render(self) -> str:
        head = [
            "---",
            f"name: {self.name}",
            f"description: {json.dumps(self.description, ensure_ascii=False)}",
            f"argument-hint: {json.dumps(self.argument_hint, ensure_ascii=False)}",
            "agent: agent",
            "---",
            "",
        ]
        return "\n".join(head) + self.body.strip() + "\n"


DOCS = "${input:documents:docs/}"
DATA = "${input:data:data.csv}"
RULES = "${input:rules:rules.yaml}"
BEFORE = "${input:before:v1.xlsx}"
AFTER = "${input:after:v2.xlsx}"
PRESET = "${input:preset:generic}"
FOLDER_IN = "${input:folder:docs/}"

PROMPTS = (
    Prompt(
        "summarize-documents",
        "Summarise Word, Excel, PowerPoint, PDF or draw.io files, saying what could not be read",
        "the files or folder to summarise",
        f"""
Summarise the documents in {DOCS} for me. Use doc2md (its skill has the details).

1. See what would be written, writing nothing: `doc2md -r {DOCS} -d out/ --dry-run`
2. Convert (the originals are never modified): `doc2md -r {DOCS} -d out/`
3. Read each `out/<name>.md` and summarise it.
4. Under the heading "Not converted", list every `loss.*` and `content.hidden` finding of the
   report with its file, and say what the summary may be missing because of it.
5. A file the report marks `convert.failed` (exit 2) could not be read at all: say why (the
   code in its `field`) and ask me for a readable copy. Do not retry it as is.
""",
    ),
    Prompt(
        "summarize-documents-ja",
        "Word・Excel・PowerPoint・PDF・draw.io の文書を要約し、読み取れなかった内容も報告する",
        "要約するファイルまたはフォルダ",
        f"""
{DOCS} の文書を要約してください。doc2md を使います（詳しくは doc2md のスキル）。

1. 何が書き出されるかを、何も書かずに確認する: `doc2md -r {DOCS} -d out/ --dry-run`
2. 変換する（元のファイルは変更されません）: `doc2md -r {DOCS} -d out/`
3. `out/<名前>.md` をそれぞれ読んで要約する。
4. 「変換できなかった内容」という見出しの下に、レポートの `loss.*` と `content.hidden` の
   指摘をファイル名とともにすべて挙げ、そのために要約から抜けているかもしれない内容を書く。
5. レポートで `convert.failed`（終了コード 2）のファイルは読めていません。理由（`field` の
   コード）を伝え、読めるファイルを私に求めてください。そのまま再試行はしないこと。
""",
    ),
    Prompt(
        "check-data",
        "Check a table (CSV, Excel, JSON, Markdown) against a rules file and report each finding",
        "the data file and the rules file",
        f"""
Check {DATA} against the rules in {RULES}. Use fieldcheck (its skill has the details); it never
changes the data.

1. Check the rules file alone: `fieldcheck check-rules {RULES}`. Exit 2 names the line and
   column of a problem in the rules: fix the rules, not the data. With no rules file yet,
   write one from `fieldcheck list-rules` and what I said the data must satisfy.
2. Check the data: `fieldcheck validate {DATA} -r {RULES}`
3. Exit 0: say that no rule found a problem. Exit 1: list the findings, errors first, each
   with its rule id, row, column, expected and actual value. Do not edit the data unless I
   ask.
""",
    ),
    Prompt(
        "check-data-ja",
        "表（CSV・Excel・JSON・Markdown）をルールファイルで検査し、指摘を報告する",
        "データファイルとルールファイル",
        f"""
{DATA} を {RULES} のルールで検査してください。fieldcheck を使います（詳しくは fieldcheck の
スキル）。データは変更されません。

1. ルールファイルだけを検査する: `fieldcheck check-rules {RULES}`。終了コード 2 はルールの
   問題の行と列を示します。直すのはルールで、データではありません。ルールファイルがまだ
   なければ、`fieldcheck list-rules` と私が伝えた条件から書いてください。
2. データを検査する: `fieldcheck validate {DATA} -r {RULES}`
3. 終了コード 0 なら問題なしと伝える。1 なら指摘をエラーから順に、ルール ID・行・列・
   期待値・実際の値とともに挙げる。私が頼まない限りデータは編集しないこと。
""",
    ),
    Prompt(
        "design-changes",
        "What changed between two versions of an Excel design document (API, table, screen)",
        "the old and the new workbook",
        f"""
What changed between {BEFORE} (old) and {AFTER} (new)? Use design-diff (its skill has the
details); it only reads the workbooks.

1. Choose the preset that fits the workbooks (api, table, screen or generic):
   `design-diff presets`
2. Compare, rows joined on their key:
   `design-diff excel --before {BEFORE} --after {AFTER} --type {PRESET}`
3. Exit 1 means differences were found, not a failure. Report errors first (they break
   clients or tables: removed, renamed or narrowed items), then warnings, then the rest,
   quoting `expected` (old) and `actual` (new) as they are.
4. Exit 2 `NO_HEADER` or `UNKNOWN_COLUMN`: run again with `--key` (the message names the
   closest column) or `--header-row`; the workbooks are not at fault.
""",
    ),
    Prompt(
        "design-changes-ja",
        "Excel 設計書（API・テーブル・画面項目）の2つの版で何が変わったかを調べる",
        "旧版と新版のブック",
        f"""
{BEFORE}（旧）と {AFTER}（新）で何が変わったかを教えてください。design-diff を使います
（詳しくは design-diff のスキル）。ブックは読むだけです。

1. ブックに合うプリセット（api・table・screen・generic）を選ぶ: `design-diff presets`
2. キーで行を突き合わせて比較する:
   `design-diff excel --before {BEFORE} --after {AFTER} --type {PRESET}`
3. 終了コード 1 は差分があったという意味で、失敗ではありません。エラー（削除・名前変更・
   桁や型の縮小など、利用側を壊す変更）から順に、警告、その他の順で報告し、`expected`
   （旧）と `actual`（新）はそのまま引用してください。
4. 終了コード 2 の `NO_HEADER` や `UNKNOWN_COLUMN` は、`--key`（メッセージが最も近い列名を
   示します）か `--header-row` を付けて再実行します。ブックの問題ではありません。
""",
    ),
    Prompt(
        "rename-everywhere",
        "Rename a name everywhere in Word, Excel and PowerPoint files: dry run first",
        "the old name, the new name and the folder",
        f"""
Replace ${{input:old:the old name}} with ${{input:new:the new name}} in every Word, Excel and
PowerPoint file under {FOLDER_IN}. Use office-replace (its skill has the details); the
originals are never modified.

1. Write `rules.csv` (UTF-8) with a header line `find,replace` and one line for the name.
2. Dry run, writing nothing: `office-replace -r {FOLDER_IN} --rules rules.csv --dry-run`
3. Show me every replacement (file, place, text before and after) and every
   `replace.skipped` warning, and wait until I agree.
4. Write the replaced copies to a new folder:
   `office-replace -r {FOLDER_IN} --rules rules.csv -d out/`
5. Check that nothing is left (exit 0 when no rule matches any more):
   `office-replace -r out/ --rules rules.csv --dry-run --fail-on info`
""",
    ),
    Prompt(
        "rename-everywhere-ja",
        "Word・Excel・PowerPoint のすべてのファイルで名前を置き換える（まずドライラン）",
        "旧い名前、新しい名前、フォルダ",
        f"""
{FOLDER_IN} の下のすべての Word・Excel・PowerPoint ファイルで、${{input:old:旧い名前}} を
${{input:new:新しい名前}} に置き換えてください。office-replace を使います（詳しくは
office-replace のスキル）。元のファイルは変更されません。

1. `rules.csv`（UTF-8）を作る。1行目は `find,replace`、2行目に置き換える名前。
2. 何も書かずにドライランする: `office-replace -r {FOLDER_IN} --rules rules.csv --dry-run`
3. すべての置換（ファイル・場所・前後のテキスト）と `replace.skipped` の警告を私に見せ、
   了承を待つ。
4. 置き換えたコピーを新しいフォルダに書く:
   `office-replace -r {FOLDER_IN} --rules rules.csv -d out/`
5. 何も残っていないことを確かめる（どのルールも一致しなければ終了コード 0）:
   `office-replace -r out/ --rules rules.csv --dry-run --fail-on info`
""",
    ),
)


def prompt_files() -> dict[str, str]:
    """File name -> text, for `.github/prompts/`."""
    return {f"{p.name}.prompt.md": p.render() for p in PROMPTS}
