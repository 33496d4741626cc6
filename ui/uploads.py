"""File uploaders that say what they take in the reader's language (Streamlit's own line is English only)."""

from __future__ import annotations

import streamlit as st

from content import messages
from content.your_data import MAX_UPLOAD_MB


def file_input(label: str, key: str, *, types: list[str] | None = None, megabytes: int = MAX_UPLOAD_MB):
    """``st.file_uploader`` with its size limit (and file types) written under it; PAGE_CSS hides Streamlit's."""
    upload = st.file_uploader(label, key=key, type=types, max_upload_size=megabytes)
    st.caption(messages.upload_limit(megabytes, types))
    return upload
