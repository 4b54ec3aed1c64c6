"""``report.pdf``: the HTML report printed by a real browser engine (headless Chromium).

The PDF is made from exactly the page of :mod:`studodds.reports.html` (one content, two
formats), with the page's print styles (A4).  Chromium is found as ``$STUDODDS_CHROMIUM``, or
``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH (Debian: ``apt-get install
chromium``).  Without it the PDF is not written and the caller says so.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from evaluator.errors import StudoddsError

INSTALL_HINT = "report.pdf needs headless Chromium (Debian: apt-get install chromium; or set STUDODDS_CHROMIUM)"


def chromium() -> str | None:
    """The Chromium executable, or None."""
    explicit = os.environ.get("STUDODDS_CHROMIUM")
    if explicit:
        return explicit if shutil.which(explicit) or Path(explicit).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_reason() -> str | None:
    """Why report.pdf cannot be printed here (None when it can): a $STUDODDS_CHROMIUM that names
    no program is named, so that a typo is not mistaken for a missing browser."""
    explicit = os.environ.get("STUDODDS_CHROMIUM")
    if explicit and chromium() is None:
        return (f"report.pdf not written: STUDODDS_CHROMIUM={explicit[:200]} names no program (no such file on the "
                "PATH or on disk): point it at Chromium, or unset it to find chromium on the PATH")
    return INSTALL_HINT if chromium() is None else None


def html_to_pdf(html: str, running_header: str | None = None) -> bytes:
    """The PDF of an HTML page, printed by headless Chromium; StudoddsError if there is none or
    it fails.  ``running_header``: text for the top right of every page (the tool version and the
    table's date: printed, not part of report.html, which stays the same from run to run; the
    page's own styles put the variant top left and "Page N of M" at the foot)."""
    if running_header is not None:
        text = running_header.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("<", "")
        style = f'<style>@page {{ @top-right {{ content: "{text}"; font: 8pt "DejaVu Sans", Arial, sans-serif; color: #555; }} }}</style>'
        html = html.replace("</head>", style + "</head>", 1)
    exe = chromium()
    if exe is None:
        raise StudoddsError(missing_reason() or INSTALL_HINT)
    with tempfile.TemporaryDirectory(prefix="studodds-pdf-") as tmp:
        page, pdf = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
               f"--user-data-dir={tmp}/profile", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise StudoddsError(f"report.pdf: Chromium failed: {exc}") from None
        if r.returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
            raise StudoddsError(f"report.pdf: Chromium failed (exit {r.returncode})")
        return pdf.read_bytes()
