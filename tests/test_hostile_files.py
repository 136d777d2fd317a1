"""Hostile workbooks (issue 13): every damaged, oversized or slow file is one located refusal of
that file, never an internal error, a hang or a half-published circuit.

Each case is a real file built here (zipfile, zlib, raw XML), dropped into a copy of the built small
league; the build must refuse it with the exact message, and leave every output byte for byte as it
was, but the index, which then says the circuit kept its previous publications."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from reportgen.ingest import file_reader, precheck, reading_pool
from reportgen.ingest import workbook as reading
from reportgen.ingest.file_hashes import HASHES
from reportgen.ingest.read_cache import FOLDER
from reportgen.pipeline import build
from reportgen.site.reuse import RECORDS as PAGES
from tests.builders import TODAY, write_tournament

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
DAMAGED = ("le fichier est endommagé : la partie « {part} » est illisible — demandez au club de le renvoyer, ou "
           "ouvrez-le dans Excel ou LibreOffice et enregistrez-le à nouveau")
FORBIDDEN = ("le fichier contient des déclarations XML interdites (DOCTYPE/ENTITY) — réenregistrez-le depuis Excel "
             "ou LibreOffice, ou demandez au club de le renvoyer")
TOO_FAR = ("la feuille « {sheet} » {what}, bien au-delà d’un tableau de résultats — supprimez les lignes et colonnes "
           "inutilisées, ou copiez les résultats dans un classeur neuf")
NEW_WORKBOOK = "copiez les résultats dans un classeur neuf (Édition > Collage spécial > Valeurs)"


# -- hostile files, built by hand ----------------------------------------------------------------

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
STRICT_RELATIONSHIPS = "http://purl.oclc.org/ooxml/officeDocument/relationships"


def package(parts: dict[str, bytes | str]) -> bytes:
    """A zip of these parts (deflated), as a workbook is."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def raw_workbook(sheets: dict[str, str], main: str = MAIN, relationships: str = RELATIONSHIPS,
                 extra: dict[str, bytes | str] | None = None) -> bytes:
    """A minimal .xlsx whose sheets' `<sheetData>` content is given as raw XML (inline strings):
    what no spreadsheet program writes, but any program may."""
    entries = "".join(f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>' for n, name in enumerate(sheets, 1))
    rels = "".join(f'<Relationship Id="rId{n}" Type="{RELATIONSHIPS}/worksheet" Target="worksheets/sheet{n}.xml"/>'
                   for n in range(1, len(sheets) + 1))
    parts: dict[str, bytes | str] = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                               'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
                               '</Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                       f'package/2006/relationships"><Relationship Id="rId1" Type="{RELATIONSHIPS}/officeDocument" '
                       'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{main}" '
                           f'xmlns:r="{relationships}"><sheets>{entries}</sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
                                      f'openxmlformats.org/package/2006/relationships">{rels}</Relationships>',
    }
    for n, data in enumerate(sheets.values(), 1):
        parts[f"xl/worksheets/sheet{n}.xml"] = (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{main}">'
                                                f'<sheetData>{data}</sheetData></worksheet>')
    parts.update(extra or {})
    return package(parts)


def text_cell(ref: str | None, text: str) -> str:
    r = f' r="{ref}"' if ref else ""
    return f'<c{r} t="inlineStr"><is><t>{text}</t></is></c>'


def rows(*cells_per_row: list[str]) -> str:
    return "".join(f"<row>{''.join(cells)}</row>" for cells in cells_per_row)


def tournament_sheet(day: str = "01/03/2026") -> str:
    """The `Tournoi` sheet of a valid Grand Sud tournament, as raw XML."""
    fields = [("Circuit", "grand-sud"), ("Nom", "Tournoi d'Albi"), ("Date", day), ("Club", "ALBI"),
              ("Formule", "duplicate")]
    return rows(*[[text_cell(None, name), text_cell(None, value)] for name, value in fields])


def parts_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def valid_tournament(tmp_path: Path) -> bytes:
    """A real workbook of a new tournament (openpyxl, as the other tests write them)."""
    path = write_tournament(tmp_path / "source", "t", day="01/03/2026", club="ALBI")
    return path.read_bytes()


def entry_offsets(data: bytes, name: str) -> tuple[int, int, zipfile.ZipInfo]:
    """(offset of the local header, offset of the compressed data, info) of one part."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(name)
    header = info.header_offset
    name_length, extra_length = struct.unpack("<HH", data[header + 26:header + 30])
    return header, header + 30 + name_length + extra_length, info


SHEET = "xl/worksheets/sheet2.xml"  # openpyxl's `Résultats`


# -- the league the files are dropped into ------------------------------------------------------

def snapshot(outputs: Path) -> dict[str, bytes]:
    """Every file of outputs/, but the files' hashes known by their stat (ingest/file_hashes.py): a
    build that changes nothing still records the outputs it had to hash again."""
    return {p.relative_to(outputs).as_posix(): p.read_bytes() for p in sorted(outputs.rglob("*"))
            if p.is_file() and p.relative_to(outputs).as_posix() != f"{FOLDER}/{HASHES}"}


def published(files: dict[str, bytes]) -> dict[str, bytes]:
    """The circuits' publications: not the site's pages (nor their records, site/reuse.py) nor the
    secretary's page, which say what the last build found."""
    return {k: v for k, v in files.items()
            if k not in ("index.html", "verification.html", f"{FOLDER}/{PAGES}") and not k.startswith("site/")}


def refused(league, name: str, data: bytes) -> list[str]:
    """Drop `data` into the league as `name`, build, and return the problems as printed, after
    checking that no publication changed, and that the site says the circuit kept its outputs (or,
    for a settings file to correct, kept its pages as they were: what the file says may be wrong)."""
    (league.inputs / name).parent.mkdir(parents=True, exist_ok=True)
    (league.inputs / name).write_bytes(data)
    before = snapshot(league.outputs)
    result = build(league.inputs, league.outputs, TODAY)
    assert result.blocked == ["grand-sud"] and not result.published
    after = snapshot(league.outputs)
    assert published(after) == published(before)
    if name == "reportgen.toml":
        site = [k for k in {*before, *after} if k == "index.html" or k.startswith("site/")]
        assert site and all(after.get(k) == before.get(k) for k in site)
    else:
        assert "Des classeurs sont à corriger" in after["site/grand-sud-2026.html"].decode("utf-8")
    return [str(problem) for problem in result.problems]


def only_refusal(league, name: str, data: bytes) -> str:
    problems = refused(league, name, data)
    assert len(problems) == 1, problems
    return problems[0]


# -- damaged workbooks: one located problem each ---------------------------------------------------

def test_corrupt_deflate_data_in_a_sheet(small_league_copy, tmp_path):
    data = bytearray(valid_tournament(tmp_path))
    _, start, info = entry_offsets(bytes(data), SHEET)
    compressed = bytes(data[start:start + info.compress_size])
    # The first change of one byte that makes the deflate stream itself invalid (zlib's "invalid bit
    # length repeat" in the issue's file; any zlib error is the same damage).
    for index in range(len(compressed)):
        broken = bytearray(compressed)
        broken[index] ^= 0xFF
        try:
            zlib.decompressobj(-15).decompress(bytes(broken))
        except zlib.error:
            break
    data[start:start + info.compress_size] = broken
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", bytes(data)) == (
        "2026-03-01-albi.xlsx : " + DAMAGED.format(part=SHEET))


def test_a_bad_crc(small_league_copy, tmp_path):
    data = bytearray(valid_tournament(tmp_path))
    header, _, info = entry_offsets(bytes(data), SHEET)
    wrong = struct.pack("<I", info.CRC ^ 0xDEADBEEF)
    data[header + 14:header + 18] = wrong  # in the local header
    central = bytes(data).index(b"PK\x01\x02")
    while central != -1:  # and in the central directory, whose CRC the readers check
        name_length = struct.unpack("<H", data[central + 28:central + 30])[0]
        if bytes(data[central + 46:central + 46 + name_length]) == SHEET.encode():
            data[central + 16:central + 20] = wrong
        central = bytes(data).find(b"PK\x01\x02", central + 4)
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive, pytest.raises(zipfile.BadZipFile, match="CRC"):
        archive.read(SHEET)
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", bytes(data)) == (
        "2026-03-01-albi.xlsx : " + DAMAGED.format(part=SHEET))


def test_a_bad_local_header(small_league_copy, tmp_path):
    data = bytearray(valid_tournament(tmp_path))
    header, _, _ = entry_offsets(bytes(data), SHEET)
    data[header:header + 4] = b"PK\x09\x09"
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", bytes(data)) == (
        "2026-03-01-albi.xlsx : " + DAMAGED.format(part=SHEET))


def test_a_sheet_cut_in_half(small_league_copy, tmp_path):
    parts = parts_of(valid_tournament(tmp_path))
    parts[SHEET] = parts[SHEET][:len(parts[SHEET]) // 2]
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", package(parts)) == (
        "2026-03-01-albi.xlsx : " + DAMAGED.format(part=SHEET))


def test_a_workbook_xml_that_is_not_well_formed(small_league_copy, tmp_path):
    parts = parts_of(valid_tournament(tmp_path))
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"</sheets>", b"</feuilles>")
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", package(parts)) == (
        "2026-03-01-albi.xlsx : " + DAMAGED.format(part="xl/workbook.xml"))


BILLION_LAUGHS = ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE worksheet [<!ENTITY a "hahahahahaha">'
                  + "".join(f'<!ENTITY {chr(98 + n)} "{("&" + chr(97 + n) + ";") * 10}">' for n in range(9))
                  + f']><worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&j;</t>'
                  "</is></c></row></sheetData></worksheet>")
EXTERNAL_ENTITY = ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE worksheet [<!ENTITY secret SYSTEM '
                   f'"file:///etc/passwd">]><worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr">'
                   "<is><t>&secret;</t></is></c></row></sheetData></worksheet>")


@pytest.mark.parametrize("xml", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["billion-laughs", "external-entity"])
def test_a_dtd_in_a_utf16_sheet(small_league_copy, tmp_path, xml):
    """`b"<!DOCTYPE"` is not in UTF-16 bytes: the parser itself (defusedxml) must refuse the DTD."""
    parts = parts_of(valid_tournament(tmp_path))
    parts[SHEET] = xml.encode("utf-16")
    assert b"<!DOCTYPE" not in parts[SHEET]
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", package(parts)) == (
        "2026-03-01-albi.xlsx : " + FORBIDDEN)


@pytest.mark.parametrize("damage, expected", [
    (lambda xml: ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE sst [<!ENTITY x "y">]>'
                  + xml.decode("utf-8").split("?>", 1)[1]).encode("utf-16"), FORBIDDEN),
    (lambda xml: xml[:len(xml) - 20], DAMAGED.format(part="xl/sharedStrings.xml")),
], ids=["dtd", "cut"])
def test_shared_strings_are_pre_checked_too(small_league_copy, tmp_path, damage, expected):
    import xlsxwriter  # writes its texts as shared strings, as Excel does

    book = xlsxwriter.Workbook(tmp_path / "t.xlsx")
    info = book.add_worksheet("Tournoi")
    for row, pair in enumerate([("Circuit", "grand-sud"), ("Nom", "Albi"), ("Date", "01/03/2026"), ("Club", "ALBI"),
                                ("Formule", "duplicate")]):
        info.write_row(row, 0, pair)
    book.add_worksheet("Résultats").write_row(0, 0, ["Place", "Nom"])
    book.close()
    parts = parts_of((tmp_path / "t.xlsx").read_bytes())
    parts["xl/sharedStrings.xml"] = damage(parts["xl/sharedStrings.xml"])
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", package(parts)) == (
        "2026-03-01-albi.xlsx : " + expected)


def test_a_file_cut_anywhere_is_refused_by_the_pre_check_alone(tmp_path):
    """No exception but UnreadableWorkbook leaves the pre-check, wherever the file is cut, and each
    byte flipped in turn gives a refusal or a file the reader then reads: never an internal error."""
    data = raw_workbook({"Tournoi": tournament_sheet()})
    path = tmp_path / "t.xlsx"
    for cut in range(0, len(data), max(len(data) // 40, 1)):
        path.write_bytes(data[:cut])
        with pytest.raises(precheck.UnreadableWorkbook):
            precheck.inspect(path)
    for index in range(0, len(data), 7):
        damaged = bytearray(data)
        damaged[index] ^= 0x55
        path.write_bytes(bytes(damaged))
        outcome = file_reader._load(str(path))
        assert outcome[0] in ("ok", "error"), outcome


# -- small files that run for hours or eat memory --------------------------------------------------

@pytest.mark.parametrize("count, expected", [
    # the file: 10^6 rows, 26 MB from 100 KB, is first a zip bomb
    (1_000_000, "le fichier est anormalement volumineux une fois décompressé — " + NEW_WORKBOOK),
    # compressed less than a bomb, still past the rows of a results table
    (110_000, TOO_FAR.format(sheet="Résultats", what="déclare une cellule en A100001")),
], ids=["million", "past-the-limit"])
def test_cells_without_r_past_the_row_limit(small_league_copy, count, expected):
    """Rows and cells written without `r=`: each one follows the previous one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts_of(raw_workbook({"Tournoi": tournament_sheet(), "Résultats": ""})).items():
            if name != "xl/worksheets/sheet2.xml":
                archive.writestr(name, data)
        with archive.open("xl/worksheets/sheet2.xml", "w") as sheet:
            sheet.write(f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>'.encode())
            for _ in range(count // 10_000):
                sheet.write(b"<row><c><v>1</v></c></row>" * 10_000)
            sheet.write(b"</sheetData></worksheet>")
    assert len(buffer.getvalue()) < 200_000  # a small file
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", buffer.getvalue()) == (
        "2026-03-01-albi.xlsx : " + expected)


@pytest.mark.parametrize("main, relationships, far", [
    (MAIN, RELATIONSHIPS, "all40000"),  # a lower-case reference
    (STRICT_MAIN, STRICT_RELATIONSHIPS, "ALL40000"),  # strict OOXML's namespace
], ids=["lower-case", "strict-ooxml"])
def test_a1_and_all40000_is_refused_whatever_the_spelling(small_league_copy, main, relationships, far):
    """1.6 GB for the reader from a 5 KB file: 40,000 rows x 1,000 columns, refused by the area."""
    data = raw_workbook({"Tournoi": tournament_sheet(),
                         "Résultats": f'<row r="1">{text_cell("a1", "Place")}</row>'
                                      f'<row r="40000">{text_cell(far, "x")}</row>'}, main, relationships)
    assert len(data) < 5_000
    assert only_refusal(small_league_copy, "2026-03-01-albi.xlsx", data) == (
        "2026-03-01-albi.xlsx : " + TOO_FAR.format(sheet="Résultats", what="s’étend de A1 à ALL40000"))


def test_one_cell_written_again_and_again_is_refused(tmp_path, monkeypatch):
    """Bounds count cell elements, not only where they land: the same cell repeated fills a reader's
    memory too (the limit is lowered here: past 4 million, a file that small is a zip bomb first)."""
    monkeypatch.setattr(precheck, "MAX_CELLS", 10_000)
    path = tmp_path / "repeated.xlsx"
    path.write_bytes(raw_workbook({"Tournoi": '<row r="1">' + '<c r="A1"><v>1</v></c>' * 10_001 + "</row>"}))
    with pytest.raises(precheck.UnreadableWorkbook) as refusal:
        precheck.inspect(path)
    assert (refusal.value.message, refusal.value.fix) == ("le classeur contient plus de 10 000 cellules", NEW_WORKBOOK)


def test_what_the_parent_holds_is_bounded_across_files(tmp_path, monkeypatch):
    """Four files, each within the limits, together past what the parent may hold: the last of
    them (whichever worker answered first) is refused, the others read."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    body = rows(*[[text_cell(None, "Place"), text_cell(None, "Nom")]],
                *[[f"<c><v>{n}</v></c>", text_cell(None, f"JOUEUR{n:05d}")] for n in range(1, 2_001)])
    data = raw_workbook({"Résultats": body})
    for name in "abcd":
        (inputs / f"{name}.xlsx").write_bytes(data)
    single = len(file_reader.answer(str(inputs / "a.xlsx"))[1])
    monkeypatch.setattr(reading_pool, "MAX_ANSWERS", 3 * single + single // 2)
    workbooks, problems = reading.read_workbooks(sorted(inputs.glob("*.xlsx")), inputs)
    assert [w.label for w in workbooks] == ["a.xlsx", "b.xlsx", "c.xlsx"]
    limit = f"{reading_pool.MAX_ANSWERS / 1024**2:g}".replace(".", ",")
    assert [str(p) for p in problems] == [
        f"d.xlsx : ce classeur dépasse, avec les autres classeurs, le volume de données permis ({limit} Mo en tout)"
        " — retirez de inputs/ ce qui n’est pas un résultat de tournoi, ou copiez les résultats dans un classeur neuf"]


def test_each_file_has_a_time_limit(tmp_path, monkeypatch):
    """A file that keeps its worker busy past the limit: the worker is killed and replaced, the file
    refused, the next files read as usual."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "lent.xlsx").write_bytes(slow_workbook())
    (inputs / "normal.xlsx").write_bytes(raw_workbook({"Tournoi": tournament_sheet()}))
    monkeypatch.setattr(reading_pool, "FILE_TIME_LIMIT", 0.5)
    workbooks, problems = reading.read_workbooks(sorted(inputs.glob("*.xlsx")), inputs)
    assert [w.label for w in workbooks] == ["normal.xlsx"]
    assert [str(p) for p in problems] == [
        "lent.xlsx : la lecture du fichier dépasse 0,5 secondes, bien plus que pour un tableau de résultats — "
        + NEW_WORKBOOK]
    monkeypatch.undo()
    again, _ = reading.read_workbooks([inputs / "normal.xlsx"], inputs)  # the replaced worker reads on
    assert [w.label for w in again] == ["normal.xlsx"]


def slow_workbook() -> bytes:
    """1.6 million rows without a cell, in 15 KB: within every bound, and seconds to check."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts_of(raw_workbook({"Tournoi": ""})).items():
            if name != "xl/worksheets/sheet1.xml":
                archive.writestr(name, data)
        with archive.open("xl/worksheets/sheet1.xml", "w") as sheet:
            sheet.write(f'<worksheet xmlns="{MAIN}"><sheetData>'.encode())
            for _ in range(16):
                sheet.write(b"<row/>" * 100_000)
            sheet.write(b"</sheetData></worksheet>")
    return buffer.getvalue()


def test_a_worker_that_dies_on_a_file_names_that_file(tmp_path):
    """A worker killed while it reads (here by the test; a crash of the reader, the kernel's
    out-of-memory killer): that file is refused, and a new worker reads on."""
    import threading

    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "lent.xlsx").write_bytes(slow_workbook())
    (inputs / "normal.xlsx").write_bytes(raw_workbook({"Tournoi": tournament_sheet()}))
    reading.read_workbooks([inputs / "normal.xlsx"], inputs)  # the workers are up

    def kill_the_busy_one() -> None:
        for worker in reading_pool._workers:
            if worker.path is not None and worker.path.name == "lent.xlsx":
                worker.process.kill()

    timer = threading.Timer(0.5, kill_the_busy_one)
    timer.start()
    try:
        workbooks, problems = reading.read_workbooks([inputs / "lent.xlsx"], inputs)
    finally:
        timer.cancel()
    assert workbooks == [] and [str(p) for p in problems] == [
        "lent.xlsx : le lecteur de classeurs s’est arrêté brutalement sur ce fichier — " + NEW_WORKBOOK]
    assert [w.label for w in reading.read_workbooks([inputs / "normal.xlsx"], inputs)[0]] == ["normal.xlsx"]


def test_workers_killed_while_idle_are_replaced(tmp_path):
    (tmp_path / "t.xlsx").write_bytes(raw_workbook({"Tournoi": tournament_sheet()}))
    reading.read_workbooks([tmp_path / "t.xlsx"], tmp_path)
    for worker in reading_pool._workers:
        worker.process.kill()
        worker.process.join()
    workbooks, problems = reading.read_workbooks([tmp_path / "t.xlsx"], tmp_path)
    assert [w.label for w in workbooks] == ["t.xlsx"] and problems == []


# -- order and wording of messages -----------------------------------------------------------------

def test_a_zip_bomb_says_what_to_do(small_league_copy):
    bomb = package({"xl/workbook.xml": "<workbook/>", "xl/worksheets/sheet1.xml": b"<a>" + b" " * 11_000_000 + b"</a>"})
    assert only_refusal(small_league_copy, "bombe.xlsx", bomb) == (
        "bombe.xlsx : le fichier est anormalement volumineux une fois décompressé — " + NEW_WORKBOOK)


def test_too_many_zip_entries_say_what_to_do(small_league_copy):
    crowded = package({"xl/workbook.xml": "<workbook/>", **{f"xl/media/{n}.bin": b"" for n in range(2_001)}})
    assert only_refusal(small_league_copy, "foule.xlsx", crowded) == (
        "foule.xlsx : le classeur contient 2002 éléments internes, bien trop — " + NEW_WORKBOOK)


@pytest.mark.skipif(not Path("/usr/bin/setpriv").exists(), reason="setpriv (util-linux) is needed")
def test_a_file_that_may_not_be_read_is_said_in_french(small_league_copy):
    """A real "Permission denied": reportgen runs as a real process without root's right to read
    any file (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH: the tests run as root)."""
    secret = small_league_copy.inputs / "2026-03-01-albi.xlsx"
    write_tournament(small_league_copy.inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI")
    secret.chmod(0)
    # its own outputs/: by default `check` writes verification.html into the working folder's
    done = subprocess.run(["setpriv", "--bounding-set", "-dac_override,-dac_read_search", REPORTGEN, "check",
                           "--inputs", str(small_league_copy.inputs), "--outputs", str(small_league_copy.outputs)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "  - 2026-03-01-albi.xlsx : le fichier ne peut pas être lu : l’accès est refusé (droits du fichier) — donnez "
        "le droit de lecture sur ce fichier (ou copiez-le dans inputs/ depuis votre session), puis relancez")
    assert "Permission denied" not in done.stderr


def test_an_unreadable_club_directory_is_said_first_and_alone(small_league_copy):
    """Not 25 « club inconnu » lines followed by the cause: the cause, once, first."""
    (small_league_copy.inputs / "clubs.xlsx").write_bytes(b"PK\x03\x04 abime")
    write_tournament(small_league_copy.inputs, "zz-albi", day="01/03/2026", club="ALBI",
                     results=[[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "", "Albi"],
                              [2, "DOUBLE", "Place", "", ""]])
    before = snapshot(small_league_copy.outputs)
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    assert [str(p) for p in result.problems] == [
        "clubs.xlsx : le fichier n’est pas un classeur .xlsx lisible (fichier abîmé ou d’un autre format) — ouvrez-le "
        "dans Excel ou LibreOffice et enregistrez-le au format .xlsx",
        "zz-albi.xlsx, feuille « Résultats », cellule A4 (colonne « Place ») : la place 2 est donnée deux fois (déjà en A3) ; le "
        "règlement Grand Sud ne prévoit pas d’ex aequo — donnez à chaque joueur une place différente"]
    assert published(snapshot(small_league_copy.outputs)) == published(before)


TOUR_DE_FRANCE_OF_99999 = """
import datetime as dt
import pandas as pd
from reportgen.circuits.tour_de_france.parse import TourDeFranceTournament
from reportgen.circuits.tour_de_france.scale import shared
from reportgen.circuits.tour_de_france.scoring import rank_season, score_tournament
from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings
from reportgen.model import Event

n = 99_999
settings = TourDeFranceSettings()
event = Event("big.xlsx", "Gros", dt.date(2005, 3, 19), TourDeFranceTournament("", n))
places = [1 + (i // 3) * 3 for i in range(n)]  # ex aequo by three: 1, 1, 1, 4, 4, 4...
table = pd.DataFrame({"event": "big.xlsx", "player_id": [f"N:{i}" for i in range(n)],
                      "player": [f"JOUEUR{i:06d} Un" for i in range(n)], "place": places, "excluded": False})
scored = score_tournament(event, table, settings)
ranking = rank_season([scored], 2005, event.date, True, None, settings)
assert len(ranking.rows) == n and ranking.rows[0].tied and ranking.rows[3].rank == 4
assert shared(list(range(n, 0, -1)), [1] * n)[0] == sum(range(1, n + 1)) / n  # everyone ex aequo
print("ok")
"""


def test_a_tour_de_france_of_99999_players_is_scored_in_linear_time():
    """The issue's 1.6 MB workbook of 99,999 players was still being scored after 600 s: places,
    shared points and the ranking grew with the square of the players (10^10 steps). Linear, it
    takes seconds; the timeout leaves a wide margin and fails a quadratic step for sure."""
    done = subprocess.run([sys.executable, "-c", TOUR_DE_FRANCE_OF_99999], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_file_name_that_is_no_utf8_is_a_located_problem_not_a_crash(small_league_copy, tmp_path):
    """Unpacked from a zip made on Windows, « r\xe9sultats.xlsx » (the byte 0xE9): `check` stopped
    with « erreur interne : UnicodeEncodeError » writing the secretary's page, which kept saying all
    was well, and `build` likewise. The file is named with its byte shown, refused with what to do."""
    import json
    import os

    inputs, outputs = small_league_copy.inputs, tmp_path / "outputs"
    (inputs / "2026").mkdir(exist_ok=True)
    os.rename(inputs / "2026-01-10-carcassonne.xlsx", os.fsencode(inputs / "2026") + b"/r\xe9sultats.xlsx")
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(inputs), "--outputs", str(outputs), "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    [problem] = [p for p in json.loads(done.stdout)["problems"] if "UTF-8" in p["message"]]
    assert problem["file"] == "2026/r\\xe9sultats.xlsx" and problem["fix"].startswith("renommez le fichier")
    assert "2026/r\\xe9sultats.xlsx" in (outputs / "verification.html").read_text(encoding="utf-8")
    built = subprocess.run([REPORTGEN, "build", "--inputs", str(inputs), "--outputs", str(outputs)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 1 and "interne" not in built.stderr and "r\\xe9sultats.xlsx" in built.stderr


def test_a_file_name_that_is_no_utf8_holds_its_own_circuit_only(tmp_path):
    """A Tour de France workbook unpacked from a Windows zip (« r\xe9sultats.xlsx ») is read for its
    `Circuit` and refused there: the Grand Sud beside it is no concern of it. Refused unread, it held
    every circuit, as a file whose circuit nobody can know does."""
    import os

    from reportgen.pipeline import load
    from tests.builders import write_clubs
    from tests.test_empty_first_name import write_diplomacy

    write_clubs(tmp_path)
    write_tournament(tmp_path, "2026-01-10-carcassonne", day="10/01/2026")
    os.rename(write_diplomacy(tmp_path, "diplo", "19/03/2005", [[place, f"JOUEUR{place}", "Un"] for place in range(1, 8)]),
              os.fsencode(tmp_path) + b"/r\xe9sultats.xlsx")
    league = load(tmp_path, TODAY)
    assert league.problems == [] and league.circuits["grand-sud"].problems == []
    [problem] = league.circuits["tour-de-france"].problems
    assert str(problem.where) == "r\\xe9sultats.xlsx" and "UTF-8" in problem.message
    assert problem.fix.startswith("renommez le fichier")
    assert len(league.circuits["grand-sud"].events) == 1 and league.circuits["tour-de-france"].events == []


def test_a_link_to_a_workbook_that_is_gone_is_said_even_after_a_build_without_it(small_league_copy):
    """A link left in inputs/ (the club's file moved, a USB key unplugged) is a located refusal,
    not results silently missing; and not hidden by the last build having had no such file: the
    build's key knows a link to nothing by where it points (ingest/file_hashes.py)."""
    link = small_league_copy.inputs / "2026-03-01-albi.xlsx"
    link.symlink_to(small_league_copy.inputs.parent / "clé-usb" / "albi.xlsx")
    before = snapshot(small_league_copy.outputs)
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    assert [str(problem) for problem in result.problems] == [
        f"2026-03-01-albi.xlsx : ce fichier est un lien vers « {small_league_copy.inputs.parent}/clé-usb/albi.xlsx », "
        "qui n’existe pas (ou plus) — copiez le classeur lui-même dans inputs/ à la place du lien, ou supprimez le "
        "lien, puis relancez"]
    assert result.blocked and not result.published
    assert published(snapshot(small_league_copy.outputs)) == published(before)
    # The file comes back where the link points: read, published.
    write_tournament(small_league_copy.inputs.parent / "clé-usb", "albi", day="01/03/2026", club="ALBI")
    assert build(small_league_copy.inputs, small_league_copy.outputs, TODAY).published
