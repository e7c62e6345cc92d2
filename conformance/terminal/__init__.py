"""What a person sees on a terminal while a suite runs and when it ends.

Every long run (the three suites, the matrix, the report, fuzz runs, the
release campaign) reports :class:`~.events.ProgressEvent` values to one sink;
:func:`~.choose.progress_writer` picks the writer for the stream: a live
``rich`` display on a terminal (:mod:`.live`, the only module that imports
``rich``), plain lines at a bounded interval when the output is piped
(:mod:`.plain`: CI logs never go minutes without a line), nothing with
``--quiet``.  :mod:`.verdict` is the one verdict line, and the one way a run
picks and names its seed, that the suites share.
"""
