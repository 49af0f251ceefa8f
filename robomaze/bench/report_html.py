"""``report.html``: the Markdown report as one self-contained page.

No network and no other file: figures are embedded as ``data:`` URIs
(the same PNGs the Markdown links), styles and the table sorter are inline
(click a column header to sort by it; numbers sort as numbers, empty cells
last). The converter knows the Markdown the report writes -- headings,
paragraphs, bullet lists, pipe tables, images, ``**bold**`` and
```code``` -- and escapes everything else.

The page opens with a table of contents (every ``##`` section, each with an
anchor) and links to the data files beside it (``summary.csv``,
``stats.csv``, ``results.jsonl``, ``report.md``: the same folder, so the
links work wherever the folder is copied); wide tables scroll inside their
own box instead of widening the page.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

__all__ = ["html_page", "markdown_to_html"]

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1200px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:0;font-size:0.9em}
.tablewrap{max-width:100%;overflow-x:auto;margin:0.5em 0 1.5em}
.tablewrap td{min-width:6em;max-width:30em}
.tablewrap th:first-child,.tablewrap td:first-child{position:sticky;left:0;z-index:1;
box-shadow:1px 0 0 #ccc}
.tablewrap td:first-child{background:#fff}
.tablewrap tr:nth-child(even) td:first-child{background:#fafafa}
nav.toc{background:#f7f7f7;border:1px solid #ddd;padding:0.5em 1em;margin:1em 0}
nav.toc ul{margin:0.3em 0;padding-left:1.2em;columns:2}
h2{scroll-margin-top:0.5em}
th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top}
th{background:#f2f2f2;cursor:pointer;user-select:none;white-space:nowrap}
th.asc::after{content:' \\25B2'} th.desc::after{content:' \\25BC'}
tr:nth-child(even) td{background:#fafafa}
img{max-width:100%;height:auto}
td img{max-width:260px}
code{background:#f4f4f4;padding:0 0.2em;border-radius:3px}
details{margin:1em 0}
"""

_JS = """
document.querySelectorAll('table').forEach(function(t){
  var ths=t.querySelectorAll('thead th');
  ths.forEach(function(th,i){th.addEventListener('click',function(){
    var asc=!th.classList.contains('asc');
    ths.forEach(function(h){h.classList.remove('asc','desc')});
    th.classList.add(asc?'asc':'desc');
    var body=t.tBodies[0], rows=Array.prototype.slice.call(body.rows);
    function key(r){var s=(r.cells[i]||{}).textContent||'';s=s.trim();
      var m=s.match(/^-?\\d+(\\.\\d+)?(e[-+]?\\d+)?/i);
      return s===''?null:(m?parseFloat(m[0]):s.toLowerCase())}
    rows.sort(function(a,b){var x=key(a),y=key(b);
      if(x===null)return 1; if(y===null)return -1;
      if(typeof x!==typeof y){x=String(x);y=String(y)}
      return (x<y?-1:x>y?1:0)*(asc?1:-1)});
    rows.forEach(function(r){body.appendChild(r)});
  })});
});
"""

_IMG = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def _inline(text: str, base: Path | None) -> str:
    """Escape a line and render images, ``code`` and **bold**."""
    out, pos = [], 0
    for m in _IMG.finditer(text):
        out.append(_spans(text[pos:m.start()]))
        out.append(_image(m.group(1), m.group(2), base))
        pos = m.end()
    out.append(_spans(text[pos:]))
    return "".join(out)


def _spans(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for p in parts:
        if len(p) >= 2 and p.startswith("`") and p.endswith("`"):
            out.append(f"<code>{html.escape(p[1:-1])}</code>")
        else:
            e = html.escape(p)
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", e))
    return "".join(out)


def _image(alt: str, src: str, base: Path | None) -> str:
    uri = html.escape(src)
    if base is not None and not re.match(r"^[a-z]+:", src):
        p = (base / src)
        try:
            inside = p.resolve().is_relative_to(base.resolve())
        except OSError:
            inside = False
        if inside and p.is_file():
            kind = {".png": "image/png", ".svg": "image/svg+xml"}.get(p.suffix.lower())
            if kind:
                uri = f"data:{kind};base64," + base64.b64encode(p.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="{uri}">'


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def markdown_to_html(md: str, base: str | Path | None = None) -> str:
    """The report's Markdown as HTML (images under ``base`` embedded).

    >>> print(markdown_to_html("# T\\n\\n| a | b |\\n|---|---|\\n| 1 | `x<y` |\\n"))
    <h1>T</h1>
    <div class="tablewrap"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>
    <tr><td>1</td><td><code>x&lt;y</code></td></tr>
    </tbody></table></div>
    """
    b = Path(base) if base is not None else None
    lines = md.splitlines()
    out: list[str] = []
    i = 0
    para: list[str] = []

    def flush():
        if para:
            out.append("<p>" + " ".join(_inline(x, b) for x in para) + "</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if not s:
            flush()
            i += 1
            continue
        h = re.match(r"^(#{1,6})\s+(.*)$", s)
        if h:
            flush()
            n = len(h.group(1))
            anchor = f' id="{_slug(h.group(2))}"' if n == 2 else ""
            out.append(f"<h{n}{anchor}>{_inline(h.group(2), b)}</h{n}>")
            i += 1
            continue
        if s.startswith("|") and i + 1 < len(lines) and re.match(r"^\|?\s*:?-{3,}", lines[i + 1].strip()):
            flush()
            head = _cells(s)
            out.append("<div class=\"tablewrap\"><table><thead><tr>" + "".join(f"<th>{_inline(c, b)}</th>" for c in head)
                       + "</tr></thead><tbody>")
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                out.append("<tr>" + "".join(f"<td>{_inline(c, b)}</td>" for c in _cells(lines[i]))
                           + "</tr>")
                i += 1
            out.append("</tbody></table></div>")
            continue
        if s.startswith("- "):
            flush()
            out.append("<ul>")
            while i < len(lines) and lines[i].strip().startswith("- "):
                out.append(f"<li>{_inline(lines[i].strip()[2:], b)}</li>")
                i += 1
            out.append("</ul>")
            continue
        para.append(s)
        i += 1
    flush()
    return "\n".join(out)


def _tests_table(tests: list[dict]) -> str:
    from .report_stats import STATS_COLUMNS

    def cell(v):
        if isinstance(v, float):
            return f"{v:.4g}"
        return html.escape(str(v))

    rows = "\n".join("<tr>" + "".join(f"<td>{cell(t.get(c, ''))}</td>" for c in STATS_COLUMNS)
                     + "</tr>" for t in tests)
    return ("<details><summary>Every paired test (" + str(len(tests)) + "; also in "
            "<code>stats.csv</code>)</summary><div class=\"tablewrap\"><table><thead><tr>"
            + "".join(f"<th>{c}</th>" for c in STATS_COLUMNS) + f"</tr></thead><tbody>\n{rows}\n"
            "</tbody></table></div></details>")


def _slug(text: str) -> str:
    """The anchor of a section heading.

    >>> _slug("Path length vs widening (`corridor`)")
    'path-length-vs-widening-corridor'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


#: The report's data files, linked from the page when they are beside it.
DATA_FILES = (("summary.csv", "the tables of this page, one row per group"),
              ("stats.csv", "every paired test"),
              ("results.jsonl", "one JSON line per run (robomaze.bench.load reads it; "
               "schema in docs/results.md)"),
              ("report.md", "this report as Markdown"))


def _toc(body: str, base: Path | None) -> str:
    """Contents (every ``<h2>`` of ``body``) and the data files present in ``base``."""
    items = re.findall(r'<h2 id="([^"]+)">(.*?)</h2>', body)
    toc = "".join(f'<li><a href="#{a}">{re.sub(r"<[^>]+>", "", t)}</a></li>' for a, t in items)
    files = [(n, what) for n, what in DATA_FILES if base is not None and (base / n).is_file()]
    data = "".join(f'<li><a href="{n}"><code>{n}</code></a>: {html.escape(what)}</li>'
                   for n, what in files)
    return ('<nav class="toc" aria-label="Contents"><strong>Contents</strong>'
            f"<ul>{toc}</ul>"
            + (f'<strong id="data-files">Data files</strong><ul>{data}</ul>' if data else "")
            + "</nav>")


def html_page(md: str, base: str | Path, *, tests: list[dict] | None = None,
              title: str = "robomaze benchmark report") -> str:
    """A complete HTML document of the report (works offline, no other file needed).

    >>> page = html_page("# R\\n\\n## Outcomes\\n\\ntext\\n", None)
    >>> '<a href="#outcomes">Outcomes</a>' in page, '<h2 id="outcomes">' in page
    (True, True)
    """
    b = Path(base) if base is not None else None
    body = markdown_to_html(md, base)
    if tests:
        body += "\n<h2 id=\"all-paired-tests\">All paired tests</h2>\n" + _tests_table(tests)
    nav = _toc(body, b)
    # the contents go after the title and the lines under it, before the first section
    first = body.find("<h2 ")
    body = body + "\n" + nav if first < 0 else body[:first] + nav + "\n" + body[first:]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
            f"{body}\n<script>{_JS}</script></body></html>\n")
