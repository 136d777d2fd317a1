"""The fonts a PDF may be drawn with, and no other: a fontconfig configuration of reportgen's own.

WeasyPrint finds fonts through fontconfig, whose system configuration lists every font of the
machine and of the user's HOME: a font another program installs (LibreOffice brings a dozen) could
be chosen for a name and change a PDF's bytes, and a fingerprint of the system's fonts made every
output stale (issue 26). So the PDFs see only the fonts the project ships (`templates/fonts`, Inter,
which the stylesheet's @font-face names) and, for the scripts Inter lacks, the fallback font files
below, of the Debian packages system-packages.txt lists. `use_project_fonts` writes a fonts.conf
naming those alone (no <include> of the system's configuration, no system font folder) and points
FONTCONFIG_FILE to it, before WeasyPrint loads a configuration; `fallback_digest` is what the
render fingerprint knows of the fallback fonts: their bytes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

# The fonts a character Inter lacks is drawn with (the stylesheet's families end with
# `sans-serif`), tried in this order: DejaVu Sans (fonts-dejavu-core) for Arabic, Hebrew and the
# like; WenQuanYi Micro Hei (fonts-wqy-microhei) for Chinese, Japanese and Korean.
FALLBACK_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)
FALLBACK_FAMILIES = ("DejaVu Sans", "WenQuanYi Micro Hei")
# The shipped fonts' folder: templates/fonts, and outputs/fonts, where a build publishes them for
# the HTML pages (render/html.py `publish_fonts`; the build's state lists it, pipeline/state.py).
FONTS = "fonts"
FORMAT = 1  # of the folder `use_project_fonts` writes: another format, another folder


def _files_digest(paths: list[Path]) -> str:
    """A short SHA-256 of these files, path and bytes (a missing one is named as such)."""
    digest = hashlib.sha256()
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            digest.update(f"{path}\0absent\0".encode("utf-8", "surrogateescape"))
            continue
        digest.update(f"{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        digest.update(data)
    return digest.hexdigest()[:12]


@cache
def fallback_digest() -> str:
    return _files_digest(list(FALLBACK_FONTS))


def fonts_conf(shipped: Path, fallback: Path, cache_folder: Path) -> str:
    """The configuration: the shipped fonts' folder, a folder of links to the fallback font files,
    fontconfig's cache, and `sans-serif` meaning the fallback families, in order."""
    families = "".join(f"<family>{family}</family>" for family in FALLBACK_FAMILIES)
    return (
        '<?xml version="1.0"?>\n'
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        "<!-- Written by reportgen (render/fonts.py): the only fonts its PDFs may use. -->\n"
        "<fontconfig>\n"
        f"  <dir>{escape(str(shipped))}</dir>\n"
        f"  <dir>{escape(str(fallback))}</dir>\n"
        f"  <cachedir>{escape(str(cache_folder))}</cachedir>\n"
        f"  <alias binding=\"same\"><family>sans-serif</family><prefer>{families}</prefer></alias>\n"
        "</fontconfig>\n")


def _cache_home() -> Path:
    """Where the configuration is kept: the user's cache folder (XDG), or the temporary folder."""
    configured = os.environ.get("XDG_CACHE_HOME")
    if configured and os.path.isabs(configured):
        return Path(configured) / "reportgen"
    try:
        return Path.home() / ".cache" / "reportgen"
    except RuntimeError:  # no HOME, no password entry
        return Path(tempfile.gettempdir()) / f"reportgen-{os.getuid()}"


def _complete(folder: Path, shipped: Path) -> bool:
    """True when `folder` holds the configuration and the links it names, as written here."""
    try:
        if (folder / "fonts.conf").read_text() != fonts_conf(shipped, folder / "fallback", folder / "cache"):
            return False
        return all(os.readlink(folder / "fallback" / path.name) == str(path) for path in FALLBACK_FONTS)
    except (OSError, UnicodeDecodeError):
        return False


def _write(draft: Path, folder: Path, shipped: Path) -> None:
    """Write into `draft` the folder's files, the configuration naming `folder`, where it will be."""
    (draft / "fallback").mkdir()
    (draft / "cache").mkdir()
    for path in FALLBACK_FONTS:
        (draft / "fallback" / path.name).symlink_to(path)
    (draft / "fonts.conf").write_text(fonts_conf(shipped, folder / "fallback", folder / "cache"))


def _private(shipped: Path) -> Path:
    """A configuration in a folder of this process's own, when the cache folder cannot have one."""
    folder = Path(tempfile.mkdtemp(prefix="reportgen-fonts-"))
    _write(folder, folder, shipped)
    return folder / "fonts.conf"


@cache
def _configuration(shipped: Path) -> Path:
    """The fonts.conf for these shipped fonts, written once: in a folder named by everything it
    depends on (the shipped fonts' folder and the bytes of every font), so that fontconfig's cache
    in it is never stale. Written in a temporary folder then renamed: processes that render at the
    same time each find it whole."""
    key = hashlib.sha256(f"{FORMAT}\0{shipped}\0{_files_digest(sorted(shipped.glob('*')))}\0"
                         f"{fallback_digest()}".encode("utf-8", "surrogateescape")).hexdigest()[:16]
    home = _cache_home()
    folder = home / f"fonts-{key}"
    if _complete(folder, shipped):
        return folder / "fonts.conf"
    try:
        home.mkdir(parents=True, exist_ok=True)
        draft = Path(tempfile.mkdtemp(prefix=f".fonts-{key}-", dir=home))
    except OSError:  # a cache folder that cannot be written
        return _private(shipped)
    try:
        _write(draft, folder, shipped)
        draft.rename(folder)  # fails when another process renamed its own first (or left a broken one)
    except OSError:
        shutil.rmtree(draft, ignore_errors=True)
    return folder / "fonts.conf" if _complete(folder, shipped) else _private(shipped)


def use_project_fonts(shipped: Path) -> None:
    """Make fontconfig, in this process and those it starts, see only the shipped fonts (the folder
    `shipped`) and the fallback fonts. Before WeasyPrint is imported: it loads a configuration then,
    and again for every document (reading FONTCONFIG_FILE each time)."""
    os.environ["FONTCONFIG_FILE"] = str(_configuration(shipped.resolve()))
