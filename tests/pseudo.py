"""The pseudo-language check: every sentence a page shows must come through the catalogs.

A page run in the pseudo-language (``content.i18n.PSEUDO``) shows every translated string wrapped
in ⟦…⟧. ``untranslated(at)`` lists each visible text (titles, Markdown, captions, alerts, labels,
help, options, cards, table headers and text cells, chart titles, axes, legends and annotations,
words in formulas) with words left over outside the markers: a sentence that bypassed the catalogs.
Numbers, punctuation, metric names (kept as the source documents write them) and the scenario's
own data are not words to translate.
"""

from __future__ import annotations

import json
import re

from google.protobuf.json_format import MessageToDict

from content.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

_SPAN = re.compile(re.escape(PSEUDO_OPEN) + "[^" + PSEUDO_OPEN + PSEUDO_CLOSE + "]*" + re.escape(PSEUDO_CLOSE))
_WORD = re.compile(r"[^\W\d_]{2,}")
_TOKEN = re.compile(r"[\w@'’.-]+")
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|textit|mathrm|operatorname)\{((?:[^{}]|\{[^{}]*\})*)\}")
_TAGS = re.compile(r"<[^>]+>|&[a-z]+;|&#\d+;")

# Words that are the same in every language: the product's name, metric names and their short
# forms as the source documents write them, units and library names; the language picker names each
# language in itself (English, Türkçe, 中文), the same whatever language the page is in; Rel and top are
# the set names of the registry's formulas (|top_K ∩ Rel|), notation rather than words; Accuracy and
# Calibration are metric names, kept like Precision and Recall.
# Set names inside formulas (|top_K ∩ Rel|): notation, like the letters of a formula, only there.
FORMULA_NOTATION = {"top"}

KEEP = set("""
RecEval Lab NDCG DCG IDCG AP MAP RR MRR HR AUC GAUC LogLoss RMSE MAE MSE F1 TP FP FN TN TPR FPR ROC IPS
Precision Recall NE CTR trec_eval ranx scikit learn sklearn torchmetrics Evidently RecTools RecBole
pytrec_eval TREC JSON CSV Parquet TSV KB MB GB ms px HR@K P@K R@K log ln exp max min rel rank id ids
Spark DuckDB Polars pandas numpy NumPy SciPy scipy pyarrow Python python qrels run idcg dcg ndcg gain
trec eval cornac Recommenders MLlib Holm Bonferroni Cohen Rel Accuracy Calibration
English Türkçe 中文 Pseudo
""".split())


def _visible(node_type: str, proto) -> list[tuple[str, str]]:
    data = MessageToDict(proto, preserving_proto_field_name=True)
    texts = []
    for field in ("label", "body", "help", "placeholder"):
        value = data.get(field)
        if isinstance(value, str) and value:
            texts.append((f"{node_type}.{field}", value))
    for option in data.get("options", []) or []:
        if isinstance(option, str):
            texts.append((f"{node_type}.option", option))
    if node_type == "latex":
        texts = [(f"latex.text", m) for m in _LATEX_TEXT.findall(data.get("body", ""))]
    if node_type == "html":
        body = re.sub(r"(?s)<(style|script)[^>]*>.*?</\1>", "", data.get("body", ""))
        texts = [("html", _TAGS.sub(" ", body))] if body.strip() else []
    if node_type == "plotly_chart":
        texts = _plotly_texts(json.loads(data.get("spec", "{}")))
    if node_type == "dataframe":
        columns = json.loads(data.get("columns", "{}") or "{}")
        texts = [("table.header", c["label"]) for c in columns.values() if isinstance(c, dict) and c.get("label")]
    return texts


def _plotly_texts(spec: dict) -> list[tuple[str, str]]:
    layout, found = spec.get("layout", {}), []

    def title(where, value):
        text = value.get("text") if isinstance(value, dict) else value
        if isinstance(text, str) and text:
            found.append((where, text))

    title("chart.title", layout.get("title"))
    for name, axis in layout.items():
        if re.fullmatch(r"[xy]axis\d*", name) and isinstance(axis, dict):
            title(f"chart.{name}", axis.get("title"))
    if isinstance(layout.get("legend"), dict):
        title("chart.legend", layout["legend"].get("title"))
    for note in layout.get("annotations", []) or []:
        title("chart.annotation", note)
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) is not False and isinstance(trace.get("name"), str):
            found.append(("chart.trace", trace["name"]))
    return found


def texts(at) -> list[tuple[str, str]]:
    """Every visible text of the page run by ``at``, with the kind of element it came from."""
    found = []

    def walk(node):
        proto = getattr(node, "proto", None)
        node_type = getattr(node, "type", None)
        if proto is not None and node_type not in ("code", "data_editor") and hasattr(proto, "ListFields"):
            found.extend(_visible(node_type, proto))
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)

    walk(at._tree)
    return found


def leftover_words(text: str, keep: set[str] = frozenset()) -> list[str]:
    """The words of ``text`` outside every ⟦…⟧ span, other than those kept in every language."""
    while True:
        stripped = _SPAN.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = _TAGS.sub(" ", text).replace("\\", " ")
    # A token with a digit in it is data or a metric at a cut-off (user3, item 101, NDCG@10), not a word.
    tokens = [t for t in _TOKEN.findall(text) if not any(c.isdigit() for c in t)]
    return [w for t in tokens for w in _WORD.findall(t) if w not in KEEP and w not in keep]


def untranslated(at, keep: set[str] = frozenset()) -> list[tuple[str, str]]:
    """(element kind, text) for each visible text with a word that did not come through the catalogs."""
    return [(where, text) for where, text in texts(at)
            if leftover_words(text, keep | (FORMULA_NOTATION if where == "latex.text" else set()))]
