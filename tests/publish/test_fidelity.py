"""Publishing fidelity: every script of the example renders in the PDF on a machine set up
as the README says (and publish warns, naming the package, on one that is not); code
blocks are syntax-highlighted in print-friendly colours, through the sanitiser."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from deep_research.citations.check import check_citations
from deep_research.publish import fonts, publish_report
from deep_research.publish.code import STYLE, TOKEN_CLASSES, code_css
from deep_research.publish.html import render_html

ROOT = Path(__file__).resolve().parents[2]
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


def _pdf_fonts(path: Path) -> set[str]:
    names = set()
    for page in PdfReader(str(path)).pages:
        for ref in (page.get("/Resources") or {}).get("/Font", {}).values():
            names.add(str(ref.get_object().get("/BaseFont")))
    return names


def _publish_cli(out: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "deep_research.cli", "publish", "examples/report.md",
         "--sources", "examples/sources.json", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, **(env or {})},
    )


def _dejavu_only(tmp_path: Path) -> Path:
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{DEJAVU}</dir><cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n",
        encoding="utf-8")
    return conf


def test_example_pdf_renders_every_script_with_the_readme_fonts(tmp_path):
    r = _publish_cli(tmp_path)
    assert r.returncode == 0, r.stderr
    audit = json.loads((tmp_path / "audit.json").read_text())
    assert audit["missing_glyphs"] == [], (
        "a character of the example has no font: install the README's fonts "
        "(sudo apt-get install fonts-liberation fonts-noto-cjk)")
    assert "no installed font" not in r.stderr
    # the Chinese section is drawn with a CJK font, not boxes of a Latin one
    html = (tmp_path / "report.html").read_text()
    assert "中文资料" in html
    assert any("CJK" in name for name in _pdf_fonts(tmp_path / "report.pdf"))


@pytest.mark.skipif(not DEJAVU.is_dir(), reason="needs fonts-dejavu-core (installed by .ci/run)")
def test_publish_warns_with_the_package_when_no_font_has_a_script(tmp_path):
    out = tmp_path / "out"
    r = _publish_cli(out, {"FONTCONFIG_FILE": str(_dejavu_only(tmp_path))})
    assert r.returncode == 0, r.stderr
    assert "fonts-noto-cjk" in r.stderr and "CJK" in r.stderr
    audit = json.loads((out / "audit.json").read_text())
    (cjk,) = [m for m in audit["missing_glyphs"] if m["script"] == "CJK"]
    assert cjk["package"] == "fonts-noto-cjk"
    assert "中" in cjk["characters"] and "资" in cjk["characters"]
    assert all(fonts.script_of(ch)[0] == "CJK" for ch in cjk["characters"])
    # and indeed: the PDF had no CJK font to draw them with
    assert not any("CJK" in name for name in _pdf_fonts(out / "report.pdf"))


@pytest.mark.skipif(not DEJAVU.is_dir(), reason="needs fonts-dejavu-core (installed by .ci/run)")
def test_font_coverage_without_fc_list_agrees_with_fontconfig(tmp_path, monkeypatch):
    monkeypatch.setenv("FONTCONFIG_FILE", str(_dejavu_only(tmp_path)))
    via_fc = fonts._merge(fonts._fc_list_ranges())
    monkeypatch.setattr(fonts, "_FONT_DIRS", (str(DEJAVU),))
    via_files = fonts._merge(fonts._fonttools_ranges())
    assert via_fc[0] and via_fc == via_files


def test_missing_glyphs_skips_what_needs_no_glyph():
    assert fonts.missing_glyphs("plain ASCII text, tabs\tand\nnewlines \u200b\ufe0f\ue000") == []
    ranges: list[tuple[int, int]] = []
    fonts._parse_charset("20-7e a0-17f 4e00-4e2d", ranges)
    assert fonts._merge(ranges) == ((0x20, 0xA0, 0x4E00), (0x7E, 0x17F, 0x4E2D))
    assert fonts.script_of("中") == ("CJK", "fonts-noto-cjk")
    assert fonts.script_of("ש") == ("Hebrew", "fonts-noto-core")


# --- code highlighting ----------------------------------------------------------------------
CODE_REPORT = """# Code

Text.

```python
import os  # a comment
def total(items):
    return sum(i.price for i in items if i.price > 0)
print("hi", 42)
```

<span class="k evil" onclick="x()">raw</span> <div class="codehilite other">div</div>
"""


def _contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        h = h.lstrip("#")
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        rgb = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_code_colours_print_well():
    css = code_css()
    colours = set(re.findall(r"(?<![-\w])color: (#[0-9a-fA-F]{3,6})", css))
    assert len(colours) >= 4, STYLE
    background = re.search(r"pre \{ background: (#[0-9a-f]{6})",
                           (ROOT / "templates" / "report.css").read_text()).group(1)
    for c in colours:
        assert _contrast(c, "#ffffff") >= 4.5 and _contrast(c, background) >= 4.5, c
    assert "background" not in css.split("{", 1)[1].split("}", 1)[0]  # report.css's block background


def test_code_blocks_are_highlighted_and_still_sanitised(tmp_path):
    html = render_html(check_citations(CODE_REPORT, []))
    block = html[html.index('<div class="codehilite">'):]
    block = block[: block.index("</div>")]
    classes = set(re.findall(r'<span class="([^"]+)"', block))
    assert {"kn", "c1", "k", "s2", "mi"} <= classes and classes <= TOKEN_CLASSES
    # model-written markup is shown as text (the output policy escapes raw HTML): no element
    # carries its class names or handlers
    from lxml import html as lxml_html

    tree = lxml_html.fromstring(html)
    assert not tree.xpath("//*[@onclick]")
    assert not tree.xpath('//*[contains(@class, "evil") or contains(@class, "other")]')
    assert '&lt;span class="k evil" onclick="x()"&gt;raw&lt;/span&gt;' in html
    result = publish_report(CODE_REPORT, [], tmp_path)
    ops = PdfReader(str(result.files["pdf"])).pages[0].get_contents().get_data().decode("latin-1")
    fills = {m for m in re.findall(r"([\d.]+ [\d.]+ [\d.]+) rg", ops)}
    coloured = {f for f in fills if len(set(f.split())) > 1}  # not black, white or grey
    assert len(coloured) >= 3, fills


def test_audit_names_links_that_highlight_the_words_only(tmp_path):
    from deep_research.citations.model import Source

    content = "Example:\n\n```\n>>> class Point:\n...     def __repr__(self):\n```\n"
    src = Source("p", "https://example.org/p", content, format="markdown")
    result = publish_report('Text <ref id="p">"...     def __repr__(self):"</ref>.', [src], tmp_path,
                            pdf=False)
    assert result.summary()["words_only_links"] == 1
    audit = json.loads(result.files["audit"].read_text())
    (partial,) = audit["partial_highlights"]
    assert partial["n"] == 1 and "words only" in partial["why"]
    cite = json.loads(result.files["citations"].read_text())[0]
    assert cite["fragment_covers"] == "words" and cite["fragment"]
