"""One expansion budget per input file: bombs are generated here, small on disk and quick."""

from __future__ import annotations

import base64
import zipfile
import zlib
from pathlib import Path

from officecli_testkit.bomb_files import MIB, doc2md, zlib_of_repeats

from officecli.readers.drawio.reader import MAX_EXPANDED_BYTES


def test_zlib_of_repeats_is_real_zlib() -> None:
    assert zlib.decompress(zlib_of_repeats(b"ab" * 1000, 5)) == b"ab" * 5000
    assert zlib.decompress(zlib_of_repeats(b"ab", 3, b"<<>>")) == b"<<>>ababab"


def test_drawio_budget_is_per_file_not_per_page(tmp_path: Path) -> None:
    page_bytes = MAX_EXPANDED_BYTES // 2 - MIB  # each page alone is well within the limit
    body = b"<mxGraphModel><!--" + b"x" * page_bytes + b"--></mxGraphModel>"
    packed = base64.b64encode(zlib.compress(body, 9)[2:-4]).decode()  # raw deflate
    pages = "".join(f'<diagram name="p{n}">{packed}</diagram>' for n in range(3))
    path = tmp_path / "bomb.drawio"
    path.write_text(f"<mxfile>{pages}</mxfile>", encoding="utf-8")
    assert path.stat().st_size < MIB
    code, report = doc2md(path, "-d", tmp_path / "out")
    failed = report["findings"][0]
    assert (code, failed["rule_id"], failed["field"]) == (2, "convert.failed", "UNSAFE_FILE")
    assert "expands" in failed["message"]
    assert not (tmp_path / "out" / "bomb.md").exists()


def test_every_zip_based_format_refuses_a_zip_bomb(tmp_path: Path) -> None:
    from officecli.readers.registry import FORMATS

    for fmt in (f for f in FORMATS if f.zip_based):
        path = tmp_path / f"bomb{fmt.extensions[0]}"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("[Content_Types].xml", "<Types/>")
            zf.writestr("big.xml", b"<a>" + b"0" * (4 * MIB) + b"</a>")
        code, report = doc2md(path, "-d", tmp_path / "out")
        assert (code, report["findings"][0]["field"]) == (2, "UNSAFE_FILE"), fmt.name
