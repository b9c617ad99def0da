"""Command line: ``deep-research publish | research | resume | compare | index | eval``.

A small package over the library: each command lives in its own module and imports what it
needs when it runs, so ``--help``, ``publish`` and ``index`` start without loading the
research graph or any model library."""

from __future__ import annotations

import os
import sys

import typer

from ..env_file import load_env_file
from ..errors import UserError, mask_url_passwords, redact
from ..terminal import printable, safe_logging
from . import compare as _compare
from . import eval as _eval
from . import index as _index
from . import publish as _publish
from . import research as _research
from .helpfmt import HelpGroup
from .research import _print_result, _validate_question  # noqa: F401 - used by tests

# Nothing here imports Rich (the consoles): `--help` must start fast. They load when used.

app = typer.Typer(
    cls=HelpGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="A deep-research agent whose every citation is a checked, verbatim sentence.",
)


@app.callback()
def _root() -> None:
    """A deep-research agent whose every citation is a checked, verbatim sentence."""



for _m in (_publish, _research, _compare, _index):
    _m.register(app)
_eval.register(app)

def __getattr__(name: str):
    """The consoles and the usage table, loaded on first use (``from deep_research.cli import out``)."""
    if name in ("out", "err", "usage_table"):
        from . import console

        return getattr(console, name)
    raise AttributeError(name)


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors print one clear line and exit 2, never a traceback."""
    debug = bool(os.environ.get("DEEP_RESEARCH_DEBUG"))
    safe_logging()
    try:
        _publish.start_early_worker(list(sys.argv[1:] if argv is None else argv))
        load_env_file()
        rc = app(args=argv, standalone_mode=False)  # click returns typer.Exit's code here
        if rc == 130:  # typer turns Ctrl-C into a silent Exit(130)
            print("interrupted", file=sys.stderr)
        return rc if isinstance(rc, int) else 0
    except UserError as e:
        from rich.markup import escape as _esc

        from .console import err

        # a message of several lines (e.g. preflight's list of problems) keeps its line breaks
        # a URL's password the user typed (--base-url http://user:password@host/v1) is masked
        err.print(f"[red]error:[/red] {_esc(printable(mask_url_passwords(str(e)), keep_newlines=True))}", highlight=False)
        return e.exit_code
    except typer.Exit as e:
        return e.exit_code
    except _research.Interrupted as e:  # a research run: saved at its last step
        if e.at_prompt:
            print(file=sys.stderr)  # the prompt's line ends at "^C"
        lines = e.lines or ("interrupted: the run is saved where it stopped.",
                            *([f"Continue it with: deep-research resume {e.thread_id}"] if e.thread_id else []))
        for line in lines:
            print(line, file=sys.stderr)
        return 130
    except _index.Stopped as e:  # an index run: what it indexed so far is kept
        for line in e.lines:
            print(line, file=sys.stderr)
        return 130
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except typer.TyperException as e:  # usage errors: bad option, missing argument
        if hasattr(e, "show"):  # typer's click errors print themselves; a bare TyperException has no show()
            e.show()
        else:
            print(f"error: {printable(e)}", file=sys.stderr)
        return getattr(e, "exit_code", 2)
    except Exception as e:  # noqa: BLE001 - the last resort: a short message, not a traceback
        if debug:
            raise
        from rich.markup import escape as _esc

        from .console import err

        err.print(f"[red]internal error:[/red] {_esc(printable(redact(f'{type(e).__name__}: {e}')))}",
                  highlight=False)
        err.print("Set DEEP_RESEARCH_DEBUG=1 to see the traceback.")
        return 1
    finally:
        early = _publish.take_early_worker()  # not taken: the command failed before using it
        if early is not None:
            early.close()


def run() -> None:
    sys.exit(main())

