"""The PDFs use the shipped fonts and the fallback fonts alone (issue 26): a font installed on the
machine by another program changes no byte of a PDF and not the render fingerprint."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen.pipeline import load, score
from reportgen.render import fonts
from reportgen.render import html as html_render
from tests.builders import TODAY, write_clubs, write_tournament

# In a fresh process, as a build: the PDF of the bulletin (in the fork server's workers when asked),
# the render fingerprint, and the configuration fontconfig was given.
RENDER = """
import datetime as dt, hashlib, json, os, sys
from pathlib import Path
from reportgen.render import html, pdf

page, day, output, workers = Path(sys.argv[1]).read_text(), dt.date.fromisoformat(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
pages = pdf.render_many([(page, day)] * workers, workers=workers)
output.write_bytes(pages[0])
print(json.dumps({"pdfs": sorted({hashlib.sha256(data).hexdigest() for data in pages}),
                  "fingerprint": html.render_fingerprint(), "config": os.environ["FONTCONFIG_FILE"]}))
"""

NAMES = [[1, "王", "伟", "", "Albi"], [2, "DUPONT", "Zoé", "", "Albi"], [3, "محمد", "علي", "", "Albi"],
         [4, "כהן", "משה", "", "Albi"], [5, "李", "娜", "", "Albi"]]


def environment(home: Path) -> dict[str, str]:
    """A machine's environment with `home` as HOME: the user's fonts and caches are there."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("XDG_", "FONTCONFIG_", "PYTHON"))}  # this session's configuration too
    env["HOME"] = str(home)
    return env


def render(page: Path, day: str, output: Path, home: Path, workers: int) -> dict:
    done = subprocess.run([sys.executable, "-c", RENDER, page, day, output, str(workers)], env=environment(home),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def bulletin(tmp_path_factory):
    """A bulletin with names in scripts Inter lacks, rendered in a fresh process: (html, day, pdf, home, run)."""
    root = tmp_path_factory.mktemp("fonts")
    inputs = root / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI", results=NAMES)
    document = score(load(inputs, TODAY), ["grand-sud"]).reports["grand-sud"].documents[0]
    page = root / "bulletin.html"
    page.write_text(html_render.render(document))
    home = root / "home"
    home.mkdir()
    run = render(page, document.date.isoformat(), root / "before.pdf", home, workers=1)
    return page, document.date.isoformat(), root / "before.pdf", home, run


def install_font(home: Path, source: Path, family: str) -> Path:
    """A copy of `source` in the user's fonts folder, which the user's fontconfig settings name `family`."""
    added = home / ".local" / "share" / "fonts" / source.name
    added.parent.mkdir(parents=True, exist_ok=True)
    added.write_bytes(source.read_bytes())
    settings = home / ".config" / "fontconfig" / "fonts.conf"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><match target="scan"><test name="file"><string>{added}</string></test>
<edit name="family" mode="assign"><string>{family}</string></edit></match></fontconfig>
""")
    return added


def test_a_font_installed_in_the_users_folder_changes_no_pdf_byte_nor_the_fingerprint(bulletin, tmp_path):
    page, day, before, home, first = bulletin
    # The stylesheet's second family, with Arabic and Hebrew glyphs, where the system's fontconfig
    # looks for the user's fonts: it would draw the names Inter lacks.
    added = install_font(home, fonts.FALLBACK_FONTS[0], "Helvetica Neue")
    seen = subprocess.run(["fc-match", "-f", "%{file}", "Helvetica Neue"], env=environment(home),
                          capture_output=True, text=True, check=True, timeout=60).stdout
    assert seen == str(added)  # the system's configuration finds it

    after = render(page, day, tmp_path / "after.pdf", home, workers=2)  # in the fork server's workers
    assert after["pdfs"] == first["pdfs"] == [hashlib.sha256(before.read_bytes()).hexdigest()]
    assert after["fingerprint"] == first["fingerprint"] == html_render.render_fingerprint()
    assert Path(after["config"]).is_relative_to(home / ".cache" / "reportgen")
    shutil.rmtree(home / ".config")
    added.unlink()


def test_names_in_scripts_inter_lacks_print_with_the_fallback_fonts(bulletin):
    _, _, before, _, _ = bulletin
    listed = subprocess.run(["pdffonts", before], capture_output=True, text=True, check=True, timeout=60).stdout
    embedded = {line.split()[0].split("+")[-1] for line in listed.splitlines()[2:]}
    assert {"WenQuanYi-Micro-Hei", "DejaVu-Sans"} <= embedded
    assert all(name.startswith(("Inter", "WenQuanYi-Micro-Hei", "DejaVu-Sans")) for name in embedded), embedded
    text = subprocess.run(["pdftotext", before, "-"], capture_output=True, text=True, check=True, timeout=60).stdout
    assert "王伟" in text.replace(" ", "") and "李娜" in text.replace(" ", "")  # no space between CJK characters
    assert "محمد علي" in text and "כהן משה" in text and "DUPONT Zoé" in text


def test_fontconfig_is_given_the_shipped_and_the_fallback_fonts_alone(tmp_path):
    env = environment(tmp_path)
    code = "from reportgen.render import fonts, html; import os; fonts.use_project_fonts(html.TEMPLATES / 'fonts'); " \
           "print(os.environ['FONTCONFIG_FILE'])"
    configs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                              timeout=60).stdout.strip() for _ in range(2)]
    assert configs[0] == configs[1]  # written once, found again
    config = Path(configs[0])
    text = config.read_text()
    assert text == fonts.fonts_conf(html_render.TEMPLATES / "fonts", config.parent / "fallback", config.parent / "cache")
    assert "<include" not in text and "/usr/share/fonts" not in text and "/etc/fonts" not in text
    assert sorted(os.readlink(link) for link in (config.parent / "fallback").iterdir()) == sorted(
        str(path) for path in fonts.FALLBACK_FONTS)
    listed = subprocess.run(["fc-list", "-f", "%{file}\n"], env={**env, "FONTCONFIG_FILE": str(config)},
                            capture_output=True, text=True, check=True, timeout=60).stdout
    files = {Path(line).name for line in listed.splitlines()}
    shipped = {path.name for path in (html_render.TEMPLATES / "fonts").glob("*.otf")}
    assert files == shipped | {path.name for path in fonts.FALLBACK_FONTS}


def test_the_fingerprint_hashes_the_fallback_fonts_bytes(tmp_path, monkeypatch):
    fingerprint = html_render.render_fingerprint()
    assert f"fallback-fonts {fonts.fallback_digest()} " in fingerprint and "system-fonts" not in fingerprint
    copies = []
    for path in fonts.FALLBACK_FONTS:
        copies.append(tmp_path / path.name)
        shutil.copy2(path, copies[-1])
    monkeypatch.setattr(fonts, "FALLBACK_FONTS", tuple(copies))
    try:
        digests = []
        for _ in range(2):
            fonts.fallback_digest.cache_clear()
            digests.append(fonts.fallback_digest())
            data = bytearray(copies[-1].read_bytes())  # one byte of WenQuanYi Micro Hei, same size and date
            data[len(data) // 2] ^= 1
            stat = copies[-1].stat()
            copies[-1].write_bytes(bytes(data))
            os.utime(copies[-1], ns=(stat.st_atime_ns, stat.st_mtime_ns))
        assert digests[0] != digests[1]
    finally:
        fonts.fallback_digest.cache_clear()
