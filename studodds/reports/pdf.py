"""``report.pdf``: the HTML report printed by a real browser engine (headless Chromium).

The PDF is made from exactly the page of :mod:`studodds.reports.html` (one content, two
formats), with the page's print styles (A4).  Chromium is found as ``$STUDODDS_CHROMIUM``, or
``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH (Debian: ``apt-get install
chromium``).  Without it the PDF is not written and the caller says so.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
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
    # ignore_cleanup_errors: a failure to remove the browser's profile must never replace the
    # exception on its way out (a Ctrl-C would otherwise be reported as "Directory not empty")
    with tempfile.TemporaryDirectory(prefix="studodds-pdf-", ignore_cleanup_errors=True) as tmp:
        page, pdf = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
               f"--user-data-dir={tmp}/profile", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()]
        returncode = _run_browser(cmd)
        if returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
            raise StudoddsError(f"report.pdf: Chromium failed (exit {returncode})")
        return pdf.read_bytes()


def _run_browser(cmd: list[str], timeout: float = 120) -> int:
    """Run Chromium in a process group of its own and return its exit code.  However the wait
    ends -- done, timed out, interrupted, terminated -- the whole group is killed before this
    returns: Chromium's helper processes outlive a killed parent and would keep writing into the
    profile being removed.  Its own group also keeps a terminal's Ctrl-C to this process, which
    stops the browser itself."""
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as exc:
        raise StudoddsError(f"report.pdf: Chromium failed: {exc}") from None
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise StudoddsError(f"report.pdf: Chromium failed: no PDF within {timeout:.0f} s") from None
    finally:
        _kill_group(proc)


def _kill_group(proc: subprocess.Popen[bytes], settle: float = 10.0) -> None:
    """SIGKILL to the process group led by ``proc`` (every helper it started), reap it, and wait
    (at most ``settle`` seconds) until no process of the group is still running: a signal is
    delivered asynchronously, so without the wait a helper could still be writing into the
    browser's profile when the caller removes it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass                                   # the group is gone already
    proc.wait()
    deadline = time.monotonic() + settle
    while _group_running(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.005)


def _group_running(group: int) -> bool:
    """Whether a process of the process group ``group`` is still running (not a zombie), read
    from /proc; False where there is no /proc to read."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue                             # gone meanwhile, or not readable
        if len(fields) > 2 and int(fields[2]) == group and fields[0] not in (b"Z", b"X"):
            return True
    return False
