"""The CLI's tables at a narrow terminal: a figure is never cut, a node's name folds."""

import re

from rich.console import Console

from deep_research.cli.console import usage_table

USAGE = {name: {"calls": 12, "input_tokens": 1_234_567, "output_tokens": 123_456, "seconds": 123.4,
                "retries": 1, "repairs": 2, "shortened": 3, "cost_usd": 1.2345}
         for name in ["clarify_with_user", "write_research_brief", "supervisor_researcher_compress"]}


def render(width: int) -> str:
    con = Console(width=width, record=True, force_terminal=False)
    con.print(usage_table(USAGE))
    return con.export_text()


def test_every_figure_and_header_stays_whole_at_80_columns():
    text = render(80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text
    for figure in ["1,234,567", "123,456", "123.4", "1.2345", "3,703,701", "370,368", "370.2", "3.7035"]:
        assert figure in text, figure
    assert re.search(r"\bcalls\b.*\bin\b.*\bout\b.*\bretry\b.*\brepair\b.*\bcut\b.*\$", text)
    # the long node name is folded over lines, every letter kept
    assert "supervisor_researcher_compress" in "".join(
        line.split()[0] for line in text.splitlines() if line.strip() and not line.strip()[0].isdigit()
        and line.split()[0] not in {"Tokens", "node", "total"} and not line.strip().startswith("─"))


def test_a_wide_terminal_keeps_each_node_on_one_line():
    text = render(140)
    assert "supervisor_researcher_compress" in text and "…" not in text
