"""Every sentence a reader sees, and the machinery that shows it in the reader's language.

Layout (the floor between ``ui/`` above and ``metrics/`` below; nothing here imports Streamlit):

- ``i18n``: the reader's language and the gettext catalogs (``_``, ``ngettext``, ``N_``).
- ``numbers``: numbers as the reader writes them (decimal comma in Turkish) and read back.
- ``pages/``: the texts of each page, one module per page topic.
- ``locale/<lang>/LC_MESSAGES/<domain>.po``: the translations, one domain per part of the app;
  ``locale/<domain>.pot`` the extracted English templates; ``locale/<lang>/glossary.csv`` the terms.
- ``catalogs``: ``python -m content.catalogs extract|update|check`` (Babel) keeps them in step.

Adding a language is a new folder under ``locale/`` with one ``.po`` per domain and a glossary.

May import: :mod:`teaching` and :mod:`metrics` (for the names and data of what it describes), Babel and
markdown-it; never Streamlit or anything above it.
"""
