"""The packaging recipe's dry parts: run everywhere, in seconds, without building.

The spec and build script parse, the desktop file, MIME type and AppStream metadata are valid
and agree with each other and with the app, the icons exist.  The real build is
tests/packaging/test_bundle.py (CI).
"""

from __future__ import annotations

import ast
import configparser
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
DESKTOP = LINUX / "rag-annotator.desktop"
MIME_XML = LINUX / "rag-annotator-mime.xml"
METAINFO = LINUX / "org.ragannotator.RagAnnotator.metainfo.xml"
MIME_TYPE = "application/x-rag-annotator-goldset"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def test_spec_parses_and_names_what_the_app_loads_by_name() -> None:
    spec = (PACKAGING / "rag-annotator.spec").read_text(encoding="utf-8")
    tree = ast.parse(spec)
    calls = {node.func.id for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert {"Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE"} <= calls
    # Formats are imported by name (registry.py): without this the bundle misses them.
    assert 'collect_submodules("rag_annotator")' in spec
    # Package data (sample, schema, translations) and Qt's French catalogue are kept.
    assert 'collect_data_files("rag_annotator"' in spec
    assert '"fr"' in spec and "qtbase_" in spec
    assert (PACKAGING / "entry.py").exists()
    ast.parse((PACKAGING / "entry.py").read_text(encoding="utf-8"))


def test_spec_keeps_only_french_and_english_qt_catalogues() -> None:
    """Run the spec's translation filter on the names PySide6 ships."""
    spec = (PACKAGING / "rag-annotator.spec").read_text(encoding="utf-8")
    tree = ast.parse(spec)
    wanted = [node for node in tree.body
              if (isinstance(node, ast.FunctionDef) and node.name == "_keep")
              or (isinstance(node, ast.Assign)
                  and any(getattr(t, "id", "") == "KEEP_QT_LANGS" for t in node.targets))]
    assert len(wanted) == 2
    namespace: dict[str, object] = {"Path": Path}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "spec", "exec"), namespace)
    keep = namespace["_keep"]
    assert callable(keep)
    qt = "PySide6/Qt/translations/"
    assert keep(qt + "qtbase_fr.qm") and keep(qt + "qt_fr.qm") and keep(qt + "qtbase_en.qm")
    assert not keep(qt + "qtbase_de.qm") and not keep(qt + "qt_help_fr.qm")
    assert not keep(qt + "qtbase_zh_CN.qm")
    assert keep("rag_annotator/resources/translations/rag_annotator_fr.qm")
    assert keep("rag_annotator/resources/sample/sample_fr.json")
    assert keep("PySide6/Qt/plugins/platforms/libqxcb.so")


def test_build_script_is_valid_bash_and_ends_with_the_executable() -> None:
    script = PACKAGING / "build.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    assert subprocess.run(["bash", "-n", str(LINUX / "install.sh")]).returncode == 0
    lines = [line for line in script.read_text().splitlines() if line.strip()]
    assert lines[-1] == 'echo "$exe"'
    assert 'exe="$build/dist/rag-annotator/rag-annotator"' in lines


def test_desktop_file_opens_goldset_files() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == "rag-annotator"
    assert "%f" in entry["Exec"].split() or "%F" in entry["Exec"].split()
    assert entry["MimeType"].split(";")[0] == MIME_TYPE
    assert entry["Icon"] == "rag-annotator"
    assert entry["Terminal"] == "false"
    # The app says it is rag-annotator.desktop (app.py setDesktopFileName) and its WM class.
    app_py = (ROOT / "rag_annotator" / "app.py").read_text(encoding="utf-8")
    assert f'setDesktopFileName("{DESKTOP.stem}")' in app_py
    assert entry["StartupWMClass"] == "rag-annotator"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate not installed (Debian: desktop-file-utils)")
def test_desktop_file_validates() -> None:
    result = subprocess.run(["desktop-file-validate", str(DESKTOP)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout.lower()


def test_mime_type_matches_goldset_files() -> None:
    root = ET.parse(MIME_XML).getroot()
    assert root.tag == f"{MIME_NS}mime-info"
    (mime,) = root.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == MIME_TYPE
    globs = [g.get("pattern") for g in mime.findall(f"{MIME_NS}glob")]
    assert globs == ["*.goldset"]
    # A .goldset is an SQLite file: file managers that sniff content still know its family.
    assert mime.find(f"{MIME_NS}sub-class-of").get("type") == "application/vnd.sqlite3"


@pytest.mark.skipif(shutil.which("update-mime-database") is None,
                    reason="update-mime-database not installed (Debian: shared-mime-info)")
def test_mime_database_accepts_the_type(tmp_path: Path) -> None:
    (tmp_path / "packages").mkdir()
    shutil.copy(MIME_XML, tmp_path / "packages" / "rag-annotator.xml")
    result = subprocess.run(["update-mime-database", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert f"{MIME_TYPE}:*.goldset" in (tmp_path / "globs2").read_text()


def test_metainfo_agrees_with_the_desktop_file_and_the_package() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == METAINFO.name.removesuffix(".metainfo.xml")
    assert root.findtext("launchable") == DESKTOP.name
    assert root.find("launchable").get("type") == "desktop-id"
    assert root.findtext("provides/mediatype") == MIME_TYPE
    assert root.findtext("provides/binary") == "rag-annotator"
    from rag_annotator import __version__

    assert next(r.get("version") for r in root.findall("releases/release")) == __version__
    assert root.findtext("project_license") == "MIT"


@pytest.mark.skipif(shutil.which("appstreamcli") is None,
                    reason="appstreamcli not installed (Debian: appstream)")
def test_metainfo_validates() -> None:
    result = subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_icons_exist_and_are_what_they_say() -> None:
    svg = ET.parse(PACKAGING / "icons" / "rag-annotator.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0 0 256 256"
    png = (PACKAGING / "icons" / "rag-annotator.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (256, 256)


@pytest.mark.gui
def test_png_icon_is_rendered_from_the_svg(qapp: object) -> None:
    """The committed PNG is the SVG's rendering (re-run packaging/make_icons.py after
    editing the SVG)."""
    import importlib.util

    from PySide6.QtGui import QImage

    spec = importlib.util.spec_from_file_location("make_icons", PACKAGING / "make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fresh = module.render(PACKAGING / "icons" / "rag-annotator.svg", 256)
    committed = QImage(str(PACKAGING / "icons" / "rag-annotator.png")).convertToFormat(
        fresh.format())
    assert committed.size() == fresh.size()
    differing = sum(1 for y in range(0, 256, 4) for x in range(0, 256, 4)
                    if abs(committed.pixel(x, y) - fresh.pixel(x, y)) > 0x030303)
    assert differing < 40, f"{differing} sampled pixels differ: re-render the PNG"
