"""Real Word, PowerPoint, Excel, CSV and EPUB files, written by each format's own writer
(python-docx, python-pptx, openpyxl, the csv module, ebooklib), for the corpus tests."""

from __future__ import annotations

import csv
from pathlib import Path

# One sentence (or row) of each document that a test quotes; every one mentions heat pumps so
# that the scripted research finds every document.
DOCX_SENTENCE = "A heat pump moves heat from a cold place to a warm place instead of burning fuel."
DOCX_SENTENCE_2 = "The refrigerant absorbs heat outdoors as it evaporates and releases it indoors as it condenses."
PPTX_SENTENCE = "Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C."
PPTX_NOTE = "Installers size a heat pump for the coldest expected week of the year."
XLSX_ROW = "Item: Air-source heat pump installation; Cost (EUR): 8000 to 15000; Where: detached house"
CSV_ROW = "Country: Norway; Year: 2020; Heat pump share: more than 60 percent of detached houses"
TSV_ROW = "Region: Nordics; Heat pump sales: 1.2 million units in 2022"
EPUB_SENTENCE = "A typical air-source heat pump delivers between 2.5 and 4 units of heat for every unit of electricity."
EPUB_SENTENCE_2 = "This ratio is called the coefficient of performance, and it falls as the outdoor temperature drops."


def write_docx(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.core_properties.title = "Heat pump guide"
    d.add_heading("How heat pumps work", level=1)
    d.add_paragraph(DOCX_SENTENCE + " " + DOCX_SENTENCE_2)
    d.add_heading("Parts", level=2)
    d.add_paragraph("compressor", style="List Bullet")
    d.add_paragraph("evaporator", style="List Bullet")
    d.add_paragraph("Check the outdoor unit.", style="List Number")
    d.add_paragraph("Bleed the radiators.", style="List Number")
    table = d.add_table(rows=3, cols=2)
    for r, (a, b) in enumerate([("Country", "Share of houses"), ("Norway", "60 %"), ("Sweden", "43 %")]):
        table.cell(r, 0).text, table.cell(r, 1).text = a, b
    d.add_paragraph("Word quokka marker after the table.")
    d.save(path)
    return path


def write_pptx(path: Path) -> Path:
    import pptx
    from pptx.util import Inches

    p = pptx.Presentation()
    p.core_properties.title = ""
    s = p.slides.add_slide(p.slide_layouts[1])
    s.shapes.title.text = "Heat pumps in cold climates"
    s.placeholders[1].text_frame.text = PPTX_SENTENCE
    s.notes_slide.notes_text_frame.text = PPTX_NOTE
    s2 = p.slides.add_slide(p.slide_layouts[5])
    s2.shapes.title.text = "Sales by year"
    rows = [("Year", "Units sold"), ("2021", "2.2 million"), ("2022", "3 million")]
    table = s2.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    box = s2.shapes.add_textbox(Inches(1), Inches(5), Inches(6), Inches(1))
    box.text_frame.text = "PowerPoint pangolin marker in a text box."
    p.save(path)
    return path


def write_xlsx(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.properties.title = "Heat pump costs"
    ws = wb.active
    ws.title = "Costs"
    ws.append(["Item", "Cost (EUR)", "Where"])
    ws.append(["Air-source heat pump installation", "8000 to 15000", "detached house"])
    ws.append(["Ground-source heat pump installation", 22000.0, "detached house"])
    ws.append(["Grant", None, "Excel okapi marker"])
    ws2 = wb.create_sheet("Running")
    ws2.append(["Fuel", "Price per kWh"])
    ws2.append(["Electricity", 0.3])
    ws2.append(["Gas", "=0.1"])  # a formula: openpyxl writes no cached value, so it is empty
    wb.save(path)
    return path


def write_csv(path: Path, encoding: str = "utf-8", delimiter: str = ",") -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        w = csv.writer(f, delimiter=delimiter)
        w.writerow(["Country", "Year", "Heat pump share"])
        w.writerow(["Norway", "2020", "more than 60 percent of detached houses"])
        w.writerow(["Finland", "2020", "about 40 percent, CSV narwhal marker"])
    return path


def write_tsv(path: Path, encoding: str = "utf-8") -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(["Region", "Heat pump sales"])
        w.writerow(["Nordics", "1.2 million units in 2022"])
    return path


def write_epub(path: Path) -> Path:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("heat-pump-handbook")
    book.set_title("Heat pump handbook")
    book.set_language("en")
    one = epub.EpubHtml(title="Efficiency", file_name="one.xhtml", lang="en")
    one.content = (f"<html><body><h1>Efficiency</h1><p>{EPUB_SENTENCE}</p>"
                   f"<p>{EPUB_SENTENCE_2}</p></body></html>")
    two = epub.EpubHtml(title="Ground source", file_name="two.xhtml", lang="en")
    two.content = ("<html><body><h1>Ground source</h1><p>EPUB wombat marker: ground-source "
                   "heat pumps draw heat from pipes buried in the garden.</p></body></html>")
    book.add_item(two)  # added first, read second: the spine decides the order
    book.add_item(one)
    book.toc = (one, two)
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [one, two]
    epub.write_epub(str(path), book)
    return path


def write_all(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_docx(folder / "guide.docx")
    write_pptx(folder / "briefing.pptx")
    write_xlsx(folder / "costs.xlsx")
    write_csv(folder / "adoption.csv")
    write_tsv(folder / "sales.tsv")
    write_epub(folder / "handbook.epub")
    return folder
