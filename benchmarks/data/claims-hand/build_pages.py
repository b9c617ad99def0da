"""Rebuild the page texts of claims-hand from the Debian documentation packages.

    mkdir -p /tmp/docs && cd /tmp/docs
    apt-get download python3.11-doc python-django-doc git-doc linux-doc-6.1
    for d in *.deb; do dpkg -x "$d" x; done
    uv run python benchmarks/data/claims-hand/build_pages.py /tmp/docs/x

Every page named in pages.txt is converted with the project's own HTML text extraction
(``html_to_text(..., main_only=True)``) and written to ``pages/<docset>/<path>.txt``.
With ``--check`` nothing is written: the script only reports pages whose text differs.
"""

from __future__ import annotations

import argparse
import gzip  # claims-fresh38: lighttpd-doc ships its longer pages gzipped
import sys
from pathlib import Path

from deep_research.search.extract import html_to_text

HERE = Path(__file__).resolve().parent
ROOTS = {
    "python": "usr/share/doc/python3.11/html",
    "django": "usr/share/doc/python-django-doc/html",
    "git": "usr/share/doc/git-doc",
    "linux": "usr/share/doc/linux-doc-6.1/html",
    # claims-fresh (../claims-fresh): sqlite3-doc and bash-doc
    "sqlite": "usr/share/doc/sqlite3",
    "bash": "usr/share/doc/bash",
    # claims-fresh2 (../claims-fresh2): nodejs-doc
    "node": "usr/share/doc/nodejs/api",
    # claims-fresh3 (../claims-fresh3): apache2-doc (the English manual)
    "apache": "usr/share/doc/apache2-doc/manual/en",
    # claims-fresh4 (../claims-fresh4): diffutils-doc (the GNU diffutils manual)
    "diffutils": "usr/share/doc/diffutils",
    # claims-fresh5 (../claims-fresh5): cmake-doc (the CMake 3.25 documentation)
    "cmake": "usr/share/doc/cmake-data/html",
    # claims-fresh6 (../claims-fresh6): postfix-doc (the Postfix 3.7 HTML documentation)
    "postfix": "usr/share/doc/postfix/html",
    # claims-fresh7 (../claims-fresh7): rust-doc (The Rust Programming Language, Rust 1.63)
    "rust": "usr/share/doc/rust-doc/html",
    # claims-fresh8 (../claims-fresh8): golang-1.19-doc (the Go 1.19 spec, memory model, assembler guide)
    "go": "usr/share/doc/golang-1.19-doc/html",
    # claims-fresh9 (../claims-fresh9): bind9-doc (the BIND 9.18 Administrator Reference Manual)
    "bind9": "usr/share/doc/bind9-doc/arm",
    # claims-fresh10 (../claims-fresh10): zsh-doc (the Z Shell Manual, zsh 5.9)
    "zsh": "usr/share/doc/zsh-common/html",
    # claims-fresh11 (../claims-fresh11): exim4-doc-html (the Exim 4.96 specification, spec_html)
    "exim": "usr/share/doc/exim4-doc-html/spec_html",
    # claims-fresh12 (../claims-fresh12): erlang-doc (the Erlang/OTP 25.2 reference manual and efficiency guide)
    "erlang": "usr/share/doc/erlang-doc/doc",
    # claims-fresh13 (../claims-fresh13): varnish-doc (the Varnish Cache 7.1 documentation)
    "varnish": "usr/share/doc/varnish/html",
    # claims-fresh15 (../claims-fresh15): haproxy-doc (the HAProxy 2.6 starter guide and management guide)
    "haproxy": "usr/share/doc/haproxy/html",
    # claims-fresh16 (../claims-fresh16): libvirt-doc (the libvirt 9.0 HTML documentation)
    "libvirt": "usr/share/doc/libvirt-doc/html",
    # claims-fresh17 (../claims-fresh17): mutt (the Mutt 2.2 manual, HTML shipped in the mutt package)
    "mutt": "usr/share/doc/mutt/html",
    # claims-fresh18 (../claims-fresh18): rsyslog-doc (the rsyslog 8.2302 HTML documentation)
    "rsyslog": "usr/share/doc/rsyslog-doc/html",
    # claims-fresh19 (../claims-fresh19): debian-reference-en (the Debian Reference 2.100, English HTML)
    "debref": "usr/share/debian-reference",
    # claims-fresh20 (../claims-fresh20): python-sqlalchemy-doc (the SQLAlchemy 1.4.46 HTML documentation)
    "sqlalchemy": "usr/share/doc/python-sqlalchemy-doc/html",
    # claims-fresh21 (../claims-fresh21): octave-doc (the GNU Octave 7.3 manual, texinfo HTML)
    "octave": "usr/share/doc/octave/octave.html",
    # claims-fresh22 (../claims-fresh22): vim-doc (the Vim 9.0 help files as HTML)
    "vim": "usr/share/doc/vim/html",
    # claims-fresh23 (../claims-fresh23): debian-handbook (The Debian Administrator's Handbook, Debian 11, English HTML)
    "handbook": "usr/share/doc/debian-handbook/html",
    # claims-fresh25 (../claims-fresh25): imagemagick-6-doc (the ImageMagick 6.9.11 HTML documentation)
    "imagemagick": "usr/share/doc/imagemagick-6-common/html/www",
    # claims-fresh24 (../claims-fresh24): r-doc-html (the R 4.2.2 manuals, single-file HTML)
    "rmanual": "usr/share/doc/r-doc-html/manual",
    # claims-fresh26 (../claims-fresh26): gdb-doc (the GDB 13.1 manual, texinfo HTML split by node)
    "gdb": "usr/share/doc/gdb-doc/html/gdb",
    # claims-fresh27 (../claims-fresh27): borgbackup-doc (the BorgBackup 1.2.4 HTML documentation)
    "borg": "usr/share/doc/borgbackup/html",
    # claims-fresh28 (../claims-fresh28): python-flask-doc (the Flask 2.2.2 HTML documentation)
    "flask": "usr/share/doc/python-flask-doc/html",
    # claims-fresh29 (../claims-fresh29): python-pytest-doc (the pytest 7.2.1 HTML documentation)
    "pytest": "usr/share/doc/python-pytest-doc/html",
    # claims-fresh30 (../claims-fresh30): gnutls-doc (the GnuTLS 3.7.9 manual, single-file texinfo HTML)
    "gnutls": "usr/share/doc/gnutls-doc/html",
    # claims-fresh31 (../claims-fresh31): python-jinja2-doc (the Jinja 3.1.2 HTML documentation)
    "jinja": "usr/share/doc/python-jinja2-doc/html",
    # claims-fresh32 (../claims-fresh32): python-pandas-doc (the pandas 1.5.3 user guide, Sphinx HTML)
    "pandas": "usr/share/doc/python-pandas-doc/html",
    # claims-fresh33 (../claims-fresh33): sphinx-doc (the Sphinx 5.3.0 HTML documentation)
    "sphinx": "usr/share/doc/sphinx-doc/html",
    # claims-fresh34 (../claims-fresh34): python-scipy-doc (the SciPy 1.10.1 tutorial, Sphinx HTML)
    "scipy": "usr/share/doc/python-scipy-doc/html",
    # claims-fresh36 (../claims-fresh36): python-click-doc (the Click 8.1.3 HTML documentation)
    "click": "usr/share/doc/python-click-doc/html",
    # claims-fresh35 (../claims-fresh35): python-werkzeug-doc (the Werkzeug 2.2.2 HTML documentation)
    "werkzeug": "usr/share/doc/python-werkzeug-doc/html",
    # claims-fresh37 (../claims-fresh37): python-requests-doc (the Requests 2.28.1 HTML documentation)
    "requests": "usr/share/doc/python-requests-doc/html",
    # claims-fresh38 (../claims-fresh38): lighttpd-doc (the lighttpd 1.4.69 plain-text docs; nginx-doc has no HTML)
    "lighttpd": "usr/share/doc/lighttpd",
    # claims-fresh39 (../claims-fresh39): python-attr-doc (the attrs 22.2.0 HTML documentation)
    "attrs": "usr/share/doc/python-attr-doc/html",
    # claims-fresh40 (../claims-fresh40): libcurl4-doc (the curl 7.88.1 markdown docs, gzipped)
    "curl": "usr/share/doc/libcurl4",
    # claims-fresh41 (../claims-fresh41): python-babel-doc (the Babel 2.10.3 HTML documentation)
    "babel": "usr/share/doc/python-babel-doc/html",
    # claims-fresh42 (../claims-fresh42): python-mako-doc (the Mako 1.2.4 HTML documentation)
    "mako": "usr/share/doc/python-mako-doc/html",
    # claims-fresh43 (../claims-fresh43): python-lxml-doc (the lxml 4.9.2 HTML documentation, real path)
    "lxml": "usr/share/doc/python-lxml/html",
    # claims-fresh44 (../claims-fresh44): python-markdown-doc (the Python-Markdown 3.4.1 HTML documentation)
    "pymarkdown": "usr/share/doc/python-markdown-doc/docs",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="directory the .deb files were extracted into")
    ap.add_argument("--check", action="store_true", help="compare with the stored texts, write nothing")
    ap.add_argument("--data-dir", type=Path, default=HERE,
                    help="the data set folder holding pages.txt (default: claims-hand; ../claims-fresh for that set)")
    args = ap.parse_args()
    here = args.data_dir
    differ = 0
    for line in (here / "pages.txt").read_text().split():
        docset, rest = line.split("/", 1)
        html = (args.root / ROOTS[docset] / rest).read_bytes()
        if rest.endswith(".gz"):  # a gzipped page (claims-fresh38): read it as the file it holds
            html = gzip.decompress(html)
        text = html_to_text(html, main_only=True).text + "\n"
        out = here / "pages" / f"{line}.txt"
        if args.check:
            if not out.exists() or out.read_text(encoding="utf-8") != text:
                print(f"differs: {line}")
                differ += 1
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
