"""Write the fixtures of the generic table formats (``spreadsheet``, ``html_tables``).

    python scripts/make_spreadsheet_fixtures.py

Binary spreadsheets cannot be written by hand, and the windows-1250 files must not pass through
an editor that re-encodes them, so every input of ``fixtures/spreadsheet/`` and
``fixtures/html_tables/`` is written here; the expected files then come from
``scripts/update_golden.py``. The OpenDocument twin of ``initials-columns.xlsx`` lives in
``fixtures/spreadsheet/ods/`` because a golden case name must be unique in its folder. Each case
is named after its quirk. Writing is deterministic (fixed timestamps in the zip members) so a
re-run gives the same bytes. The HTML pages are kept as written, one table row per line, even
where that makes a long line.
"""

from __future__ import annotations

import io
import re
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts._zips import ZIP_TIME, rezip  # noqa: E402

SPREADSHEET = ROOT / "fixtures" / "spreadsheet"
HTML = ROOT / "fixtures" / "html_tables"
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")


def _normalise_zip(data: bytes) -> bytes:
    """The same archive with fixed member timestamps and a fixed created/modified stamp
    (``docProps/core.xml`` has the time of writing)."""
    def stamped(name: str, content: bytes) -> bytes:
        if name != "docProps/core.xml":
            return content
        return _STAMP.sub(b"2013-01-01T00:00:00Z", content)

    return rezip(data, stamped)


# --- xlsx -----------------------------------------------------------------------------------


def initials_columns_xlsx() -> bytes:
    """Transposed layout (one pair per column), initials, Slovak club, percent-formatted cells,
    a merged title, an empty spacer column, a tie written 4-5 and a substitute (three players)."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Pondelok"
    sheet["A1"] = "BK Senec – klubový turnaj párov"
    sheet.merge_cells("A1:J1")
    sheet["A2"] = "Organizátor: BK Senec"
    sheet["A3"] = "12. marca 2012, 24 rozdaní"
    rows = [
        ("Poradie", [1, 2, 3, "4-5", "4-5", 6, 7, 8]),
        ("Pár", [5, 2, 7, 1, 4, 8, 6, 3]),
        ("Hráči", ["JNo-PKo", "MHo MSl", "ZKu-JBa", "ĽVa-ŠTó", "EMa-IDu", "AHr-TKr-ĽMi",
                   "KŠt-OBe", "RFi-DŽi"]),
        ("%", [0.6125, 0.5750, 0.5375, 0.5, 0.5, 0.4625, 0.4250, 0.3875]),
    ]
    for r, (header, values) in enumerate(rows, start=5):
        sheet.cell(r, 1, header)
        for c, value in enumerate(values, start=3):  # column B is an empty spacer
            cell = sheet.cell(r, c, value)
            if header == "%":
                cell.number_format = "0.00%"
    return _normalise_zip(_save(book))


def _save(book: object) -> bytes:
    out = io.BytesIO()
    book.save(out)  # type: ignore[attr-defined]
    return out.getvalue()


def rows_two_sheets_summary_xlsx() -> bytes:
    """Two session sheets and a summary sheet ("Celkové poradie"): the summary is the event."""
    import openpyxl

    pairs = [
        ("1", "3", "Novák Ján - Kováč Peter", "BK Bratislava"),
        ("2", "6", "Horváthová Mária - Slováková Eva", "BK Trnava"),
        ("3", "1", "Kučera Zdeno - Baláž Jozef", "BK Bratislava"),
        ("4", "4", "Tóth Štefan - Varga Ľubomír", "BK Komárno"),
        ("5", "2", "Šťastný Ľudovít - Žiak Ondrej", "BK Trnava"),
        ("6", "5", "Dúbravová Irena - Mináčová Anna", "BK Komárno"),
    ]
    summary = [59.87, 55.21, 52.04, 48.13, 44.58, 40.17]
    sessions = {
        "1. kolo": [62.5, 51.39, 55.56, 45.83, 43.06, 41.67],
        "2. kolo": [57.24, 59.03, 48.52, 50.43, 46.1, 38.67],
    }
    book = openpyxl.Workbook()
    book.remove(book.active)

    def write(name: str, scores: Sequence[float], order: Sequence[int]) -> None:
        sheet = book.create_sheet(name)
        sheet.append(["Majstrovstvá klubu v pároch 2013"])
        sheet.append(["Dátum: 5.10.2013"])
        sheet.append([])
        sheet.append(["Por.", "Pár č.", "Meno", "Klub", "%"])
        for place, index in enumerate(order, start=1):
            _, label, names, club = pairs[index]
            sheet.append([place, int(label), names, club, scores[index]])

    for name, scores in sessions.items():
        order = sorted(range(6), key=lambda i: -scores[i])
        write(name, scores, order)
    write("Celkové poradie", summary, range(6))
    return _normalise_zip(_save(book))


def _inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{escape(text)}</t></is></c>'


def _num(ref: str, value: float | int, formula: str | None = None) -> str:
    f = f"<f>{escape(formula)}</f>" if formula else ""
    return f'<c r="{ref}">{f}<v>{value}</v></c>'


def formulas_cached_values_xlsx() -> bytes:
    """Places and totals written as formulas with the values the spreadsheet program cached,
    a totals row at the bottom ("Spolu"), and two IMP score columns (the total is taken)."""
    players = [
        ("Ryba Pavol - Sýkora Martin", 18, 22),
        ("Lukáčová Jana - Kráľ Michal", 25, 9),
        ("Dvořák Tomáš - Nowak-Kowalska Anna", 4, 12),
        ("Kiss Gábor - Szőke Zoltán", -11, 3),
        ("Mrázik Peter - Ďurica Roman", -14, -20),
        ("Bielik Oto - Čapka Ivan", -22, -26),
    ]
    rows = [
        f'<row r="1">{_inline("A1", "Liga párov IMP – 3. kolo, 21.11.2013")}</row>',
        f'<row r="2">{_inline("A2", "Usporiadateľ: BK Nitra")}</row>',
        '<row r="4">' + "".join(_inline(f"{col}4", text) for col, text in zip(
            "ABCDEF", ["Miesto", "Pár", "Meno", "IMP 1. kolo", "IMP 2. kolo", "IMP spolu"]
        )) + "</row>",
    ]
    totals = [a + b for _, a, b in players]
    for i, (names, a, b) in enumerate(players):
        r = 5 + i
        rank = 1 + sum(t > totals[i] for t in totals)
        rows.append(
            f'<row r="{r}">'
            + _num(f"A{r}", rank, f"RANK(F{r},$F$5:$F$10)")
            + _num(f"B{r}", i + 1)
            + _inline(f"C{r}", names)
            + _num(f"D{r}", a) + _num(f"E{r}", b)
            + _num(f"F{r}", a + b, f"D{r}+E{r}")
            + "</row>"
        )
    rows.append('<row r="11">' + _inline("C11", "Spolu")
                + _num("D11", sum(a for _, a, _ in players), "SUM(D5:D10)")
                + _num("E11", sum(b for _, _, b in players), "SUM(E5:E10)")
                + _num("F11", sum(totals), "SUM(F5:F10)") + "</row>")
    sheet = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<sheetData>{"".join(rows)}</sheetData></worksheet>'
    )
    members = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            "</Types>"
        ),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="Liga" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": sheet,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(zipfile.ZipInfo(name, ZIP_TIME), text.encode("utf-8"))
    return out.getvalue()


# --- ods ------------------------------------------------------------------------------------


def initials_columns_ods() -> bytes:
    """Transposed layout with initials in an OpenDocument sheet: a merged (covered) title cell,
    repeated empty rows and columns, a tie written as a repeated 3, percentage-typed cells."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import CoveredTableCell, Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="19.3.2012")

    def text_cell(text: str, **attributes: object) -> TableCell:
        cell = TableCell(valuetype="string", **attributes)
        cell.addElement(P(text=text))
        return cell

    def number_cell(value: float, kind: str = "float") -> TableCell:
        cell = TableCell(valuetype=kind, value=str(value))
        cell.addElement(P(text=f"{value * 100:.2f} %" if kind == "percentage" else str(value)))
        return cell

    title = TableRow()
    title.addElement(text_cell("Klubový turnaj párov", numbercolumnsspanned="6"))
    for _ in range(5):
        title.addElement(CoveredTableCell())
    table.addElement(title)
    organiser = TableRow()
    organiser.addElement(text_cell("Klub: BK Senec"))
    table.addElement(organiser)
    table.addElement(TableRow(numberrowsrepeated="2"))  # two empty spacer rows
    data = [
        ("Miesto", [("n", 1), ("n", 2), ("n", 3), ("n", 3), ("n", 5), ("n", 6)]),
        ("Pár č.", [("n", 4), ("n", 1), ("n", 6), ("n", 2), ("n", 5), ("n", 3)]),
        ("Mená", [("s", "ŠTó-JNo"), ("s", "MHo-ĽVa"), ("s", "PKo-ZKu"), ("s", "JBa-EMa"),
                  ("s", "IDu-KŠt"), ("s", "OBe-RFi")]),
        ("Body %", [("p", 0.6042), ("p", 0.5521), ("p", 0.5), ("p", 0.5), ("p", 0.4479),
                    ("p", 0.3958)]),
    ]
    for header, values in data:
        row = TableRow()
        row.addElement(text_cell(header))
        for kind, value in values:
            if kind == "s":
                row.addElement(text_cell(str(value)))
            else:
                row.addElement(number_cell(float(value), "percentage" if kind == "p" else
                                           "float"))
        row.addElement(TableCell(numbercolumnsrepeated="1000"))  # trailing empty columns
        table.addElement(row)
    table.addElement(TableRow(numberrowsrepeated="1048000"))  # trailing empty rows
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.save(out)
    return _normalise_zip(out.getvalue())


# --- xls ------------------------------------------------------------------------------------


def legacy_rows_xls() -> bytes:
    """A legacy .xls (BIFF8): Czech headers, players in two columns (Hráč 1 / Hráč 2), a merged
    title, a tie written 5.-6. on both rows, two score columns (% taken), a totals row."""
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Výsledky")
    percent = xlwt.easyxf(num_format_str="0.00%")
    sheet.write_merge(0, 0, 0, 6, "Klubový turnaj párů – Bridžový klub Brno")
    sheet.write(1, 0, "Pořadatel: BK Brno")
    sheet.write(2, 0, "3. října 2011")
    for c, header in enumerate(["Umístění", "Pár", "Hráč 1", "Hráč 2", "Oddíl", "Body", "%"]):
        sheet.write(4, c, header)
    rows = [
        ("1.", 7, "Dvořák Tomáš", "Procházka Jiří", "BK Brno", 142, 0.6574),
        ("2.", 2, "Černá Věra", "Růžička Pavel", "BK Brno", 121, 0.5602),
        ("3.", 5, "Nováková-Dvořáková Jana", "Kopecký Luboš", "BK Olomouc", 113, 0.5231),
        ("4.", 1, "Šimek Radek", "Hájek Ondřej", "BK Brno", 108, 0.5),
        ("5.-6.", 4, "Zelenka Miroslav", "Pospíšil Karel", "BK Zlín", 96, 0.4444),
        ("5.-6.", 8, "Marková Lenka", "Benešová Hana", "BK Brno", 96, 0.4444),
        ("7.", 3, "Kratochvíl Petr", "Vlček Josef", "BK Olomouc", 84, 0.3889),
        ("8.", 6, "Jelínek Martin", "Urban Aleš", "BK Zlín", 76, 0.3519),
    ]
    for r, values in enumerate(rows, start=5):
        for c, value in enumerate(values):
            if c == 6:
                sheet.write(r, c, value, percent)
            else:
                sheet.write(r, c, value)
    sheet.write(13, 0, "Celkem")
    sheet.write(13, 5, sum(row[5] for row in rows))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# --- csv ------------------------------------------------------------------------------------


def semicolon_cp1250_csv() -> bytes:
    """A generic results CSV (not the template): windows-1250, semicolons, decimal commas, a
    title and a date line above the header, a tie written as a blank place under a placed row."""
    text = (
        "Turnaj párů BK Praha – Valentýnský;;;;\r\n"
        "Datum: 14.2.2013;;;;\r\n"
        ";;;;\r\n"
        "Poř.;Č. páru;Jména;Klub;%\r\n"
        "1;4;Dvořák Tomáš – Procházka Jiří;BK Praha;62,15\r\n"
        "2;1;Černá Věra / Růžička Pavel;BK Praha;58,40\r\n"
        "3;6;Šťastná Žaneta – Kříž Ľubor;BK Kladno;51,25\r\n"
        ";2;Nováková-Dvořáková Jana – Hořejší Zdeněk;BK Praha;51,25\r\n"
        "5;3;Bartošová Růžena – Kučera Štěpán;BK Kladno;45,10\r\n"
        "6;5;Pokorný Václav – Říha Jaroslav;BK Praha;31,85\r\n"
    )
    return text.encode("cp1250")


# --- html -----------------------------------------------------------------------------------


def cp1250_no_charset_html() -> bytes:
    """A Slovak page in windows-1250 that declares no charset (ľ, š, ť, ž tell cp1250 from
    ISO-8859-2), a tie written 3-4 on both rows, one pair's names split by a line break."""
    page = """<html><head><title>Výsledky</title></head>
<body>
<h2>Turnaj párov BK Žilina – Ľubochnianska jar</h2>
<p>Dátum: 12. marca 2012</p>
<table border="1">
<tr><th>Por.</th><th>Pár</th><th>Meno</th><th>%</th></tr>
<tr><td>1</td><td>3</td><td>Šťastný Ľubomír - Žiak Štefan</td><td>63,54</td></tr>
<tr><td>2</td><td>5</td><td>Ďurišová Ľubica - Kšiňanová Božena</td><td>56,25</td></tr>
<tr><td>3-4</td><td>1</td><td>Šoltés Tibor<br>Ťapák Ľudovít</td><td>50,00</td></tr>
<tr><td>3-4</td><td>6</td><td>Líška Marián - Čierny Vladimír</td><td>50,00</td></tr>
<tr><td>5</td><td>2</td><td>Záhorský Jaroslav - Mäsiar Ján</td><td>42,71</td></tr>
<tr><td>6</td><td>4</td><td>Poláková Želmíra - Ľalík Dušan</td><td>37,50</td></tr>
</table>
</body></html>
"""
    return page.encode("cp1250")


def two_sections_sk_html() -> bytes:
    """Two sections (Skupina A / Skupina B, one table each), a pair with a substitute (three
    players), a header row repeated in the middle, a totals row, a place merged over a tie
    (rowspan) and an empty spacer column."""
    page = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>BK Žilina – výsledky</title></head>
<body>
<h1>Klubový turnaj párov</h1>
<p>Organizátor: BK Žilina</p>
<p>16. apríla 2013, 26 rozdaní</p>
<h2>Skupina A</h2>
<table>
<tr><th>Poradie</th><th></th><th>Pár č.</th><th>Mená</th><th>Body</th><th>%</th></tr>
<tr><td>1.</td><td></td><td>2</td><td>Novák Ján - Kováč Peter - Horváth Milan</td><td>187</td><td>59,94</td></tr>
<tr><td>2.</td><td></td><td>5</td><td>Balážová Zuzana - Mikuláš Ondrej</td><td>171</td><td>54,81</td></tr>
<tr><td rowspan="2">3.-4.</td><td></td><td>1</td><td>Gregor Igor - Beňo Rastislav</td><td>156</td><td>50,00</td></tr>
<tr><td></td><td>4</td><td>Šulcová Ľudmila - Oravec Dušan</td><td>156</td><td>50,00</td></tr>
<tr><th>Poradie</th><th></th><th>Pár č.</th><th>Mená</th><th>Body</th><th>%</th></tr>
<tr><td>5.</td><td></td><td>3</td><td>Hudec Vojtech - Jurčo Pavol</td><td>140</td><td>44,87</td></tr>
<tr><td>6.</td><td></td><td>6</td><td>Medveď Emil - Turčan Ľuboš</td><td>126</td><td>40,38</td></tr>
<tr><td colspan="3">Spolu</td><td></td><td>936</td><td></td></tr>
</table>
<h2>Skupina B</h2>
<table>
<tr><th>Poradie</th><th></th><th>Pár č.</th><th>Mená</th><th>Body</th><th>%</th></tr>
<tr><td>1.</td><td></td><td>11</td><td>Kollár Miroslav - Sloboda Andrej</td><td>96</td><td>61,54</td></tr>
<tr><td>2.</td><td></td><td>13</td><td>Vargová Edita - Fabian Roman</td><td>81</td><td>51,92</td></tr>
<tr><td>3.</td><td></td><td>12</td><td>Páleník Jozef - Chovanec Štefan</td><td>73</td><td>46,79</td></tr>
<tr><td>4.</td><td></td><td>14</td><td>Ružička Marek - Zajac Ivan</td><td>62</td><td>39,74</td></tr>
</table>
</body></html>
"""
    return page.encode("utf-8")


def cz_teams_imp_html() -> bytes:
    """Czech teams event scored in IMPs: players one per line (<br>), one team written over
    several rows (place and team name merged with rowspan), four to six players per team."""
    page = """<html><head>
<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">
<title>Pohár družstev</title></head>
<body>
<table width="100%"><tr><td>
<h2>Pohár družstev 2011 - finále</h2>
Pořadatel: Bridžový svaz Praha<br>
Praha, 3. října 2011
</td></tr></table>
<table border="1">
<tr><td>Pořadí</td><td>Družstvo</td><td>Hráči</td><td>IMP</td></tr>
<tr><td>1</td><td>Slavia A</td><td>Dvořák Tomáš<br>Procházka Jiří<br>Černá Věra<br>Růžička Pavel</td><td>+48</td></tr>
<tr><td rowspan="4">2</td><td rowspan="4">Vyšehrad</td><td>Kopecký Luboš</td><td rowspan="4">+17</td></tr>
<tr><td>Šimek Radek</td></tr>
<tr><td>Hájek Ondřej</td></tr>
<tr><td>Zelenka Miroslav</td></tr>
<tr><td>3</td><td>Karlín</td><td>Pospíšil Karel<br>Marková Lenka<br>Benešová Hana<br>Kratochvíl Petr<br>Vlček Josef<br>Jelínek Martin</td><td>-21</td></tr>
<tr><td>4</td><td>Smíchov</td><td>Urban Aleš<br>Řezníček Jan<br>Čermák Bořivoj<br>Ševčík Luděk</td><td>-44</td></tr>
</table>
</body></html>
"""
    return page.encode("iso8859_2")


def individual_en_html() -> bytes:
    """An English individual event with Hungarian and Polish players, a title row inside the
    table spanning all columns (colspan), an empty spacer column, ``MP %`` scores and a phantom
    that keeps its place without players."""
    page = """<html><head><meta charset="utf-8"><title>Budapest Open Individual</title></head>
<body>
<table>
<tr><td colspan="5">Budapest Open Individual – 8 August 2013</td></tr>
<tr><td colspan="5">Organiser: Budapest Bridge Club</td></tr>
<tr><th>Rank</th><th>&nbsp;</th><th>Player</th><th>Club</th><th>MP %</th></tr>
<tr><td>1</td><td>&nbsp;</td><td>Szőke Zoltán</td><td>BBC Budapest</td><td>63.9</td></tr>
<tr><td>2</td><td>&nbsp;</td><td>Kovács Erzsébet</td><td>BBC Budapest</td><td>58.3</td></tr>
<tr><td>3</td><td>&nbsp;</td><td>Łukasiewicz Paweł</td><td>AZS Kraków</td><td>55.6</td></tr>
<tr><td>3</td><td>&nbsp;</td><td>Győri Ödön</td><td>Debreceni BK</td><td>55.6</td></tr>
<tr><td>5</td><td>&nbsp;</td><td>Fűzfa Réka</td><td>BBC Budapest</td><td>47.2</td></tr>
<tr><td>6</td><td>&nbsp;</td><td>Źródło Małgorzata</td><td>AZS Kraków</td><td>44.4</td></tr>
<tr><td>7</td><td>&nbsp;</td><td>Németh Ákos</td><td>Debreceni BK</td><td>41.7</td></tr>
<tr><td>8</td><td>&nbsp;</td><td>PHANTOM</td><td></td><td>33.3</td></tr>
</table>
</body></html>
"""
    return page.encode("utf-8")


FIXTURES = {
    SPREADSHEET / "initials-columns.xlsx": initials_columns_xlsx,
    SPREADSHEET / "ods" / "initials-columns.ods": initials_columns_ods,
    SPREADSHEET / "rows-two-sheets-summary.xlsx": rows_two_sheets_summary_xlsx,
    SPREADSHEET / "legacy-rows.xls": legacy_rows_xls,
    SPREADSHEET / "semicolon-cp1250.csv": semicolon_cp1250_csv,
    SPREADSHEET / "formulas-cached-values.xlsx": formulas_cached_values_xlsx,
    HTML / "cp1250-no-charset.html": cp1250_no_charset_html,
    HTML / "two-sections-sk.html": two_sections_sk_html,
    HTML / "cz-teams-imp.html": cz_teams_imp_html,
    HTML / "individual-en.html": individual_en_html,
}


def main() -> int:
    for path, make in FIXTURES.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        data = make()
        old = path.read_bytes() if path.exists() else None
        if old != data:
            path.write_bytes(data)
        print(f"{'unchanged' if old == data else 'written'}: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
