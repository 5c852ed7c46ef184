"""A run's figures, loaded once and rendered everywhere (DESIGN section 2).

``inputs`` reads the inputs of the pure metrics through the store; ``run_figures`` assembles
ONE :class:`~rag_annotator.reports.run_figures.RunFigures` value per (run, policy, measures,
options) with :func:`~rag_annotator.reports.run_figures.build`; ``render`` (``metrics
--json``, the native JSON's derived figures), ``text`` (``metrics`` at a terminal) and
``workbook`` (the XLSX summary sheet) render it, and the dashboard lays it out.  So the
dashboard, the CLI and the exports cannot disagree (tests/reports/test_one_source.py).
Every figure's interval travels in the same value (``RunFigures.intervals``; ``intervals_json``
renders the ranges); ``drift`` builds the drift table of every run from their RunFigures and
``drift_text`` prints it.

Dependencies: ``reports`` imports ``metrics``, ``storage`` and ``domain``; ``ui`` and
``import_export`` import ``reports``; ``metrics`` never imports ``reports``.  No Qt here.
"""
