"""Tables' fractional numbers in the reader's notation, up to 50,000 cells, and a note above that.

readers_notation's Styler replaces private parts of pandas and Streamlit: the first test
compares what Streamlit sends for it with what it sends for a real Styler, so an upgrade of either that
changes them fails here rather than on a reader's screen.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from streamlit.elements.lib.pandas_styler_utils import marshall_styler
from streamlit.proto.ArrowData_pb2 import ArrowData
from streamlit.testing.v1 import AppTest

from content import numbers
from ui.input import readers_notation


def sent(styler) -> tuple[pd.DataFrame, str]:
    proto = ArrowData()
    marshall_styler(proto, styler, "uuid")
    return pa.ipc.open_stream(proto.styler.display_values).read_pandas(), proto.styler.styles


def awkward_frame(rows: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.choice(np.array([0.25, -0.5, 1.0, 1234.56789, 1e-9, np.nan, 2 / 3]), rows)
    return pd.DataFrame({"user": [f"u{i}" if i % 5 else None for i in range(rows)], "score": values,
                         "count": rng.integers(0, 5000, rows), "share": rng.random(rows)})


@pytest.mark.parametrize("language", ["tr", "en", "zh"])
@pytest.mark.parametrize("seed", range(5))
def test_streamlit_receives_what_a_real_styler_gives(language, seed):
    frame = awkward_frame(40, seed)
    columns = readers_notation.float_columns(frame)
    real = frame.style.format(lambda v: numbers.short(v, language=language), subset=columns, na_rep="—")
    lean = readers_notation.readers_notation(frame, columns, "—", language)
    (real_values, real_styles), (lean_values, lean_styles) = sent(real), sent(lean)
    pd.testing.assert_frame_equal(lean_values[columns], real_values[columns])
    assert lean_styles == real_styles
    # Other cells show their own values; a real Styler also writes an empty one as the text "None".
    others = [c for c in frame.columns if c not in columns]
    pd.testing.assert_frame_equal(lean_values[others], real_values[others].mask(frame[others].isna()))


def table_page(rows: int, language: str):
    def script():
        import numpy as np
        import pandas as pd
        import streamlit as st

        from content import i18n
        from ui.widgets import show_table

        rng = np.random.default_rng(0)
        frame = pd.DataFrame({"user": np.arange(st.session_state["rows"])})
        for column in range(9):
            frame[f"m{column}"] = rng.random(len(frame)).round(3)
        frame["m0"] = 0.5
        with i18n.speaking(st.session_state["language"]):
            show_table(frame)

    at = AppTest.from_function(script, default_timeout=60)
    at.session_state["rows"], at.session_state["language"] = rows, language
    return at.run()


def shown(at) -> pd.DataFrame:
    arrow = at.dataframe[0].proto.arrow_data
    assert arrow.HasField("styler"), "the grid's own notation"
    return pa.ipc.open_stream(arrow.styler.display_values).read_pandas()


def test_a_turkish_table_of_20000_numbers_shows_decimal_commas():
    at = table_page(2_000, "tr")  # 2,000 x 10 = 20,000 cells, ten times the old limit
    cells = shown(at)
    assert (cells["m0"] == "0,5").all()
    assert not any(c.value for c in at.caption)


def test_above_the_limit_the_page_says_the_grid_writes_a_point():
    rows = readers_notation.STYLED_CELLS // 10 + 1
    turkish = table_page(rows, "tr")
    assert not turkish.dataframe[0].proto.arrow_data.HasField("styler")
    assert [c.value for c in turkish.caption] == [
        "Bu tabloda 50.000 sayıdan fazlası var: sayfa hızlı kalsın diye ondalık işaretleri nokta ile yazılıyor."]
    english = table_page(rows, "en")
    assert not english.caption, "a point is the English decimal mark: nothing to say"
