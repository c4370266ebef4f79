"""Hugging Face response templates run as toolwire text formats (specs/README.md §1b.13).

:mod:`.source` finds a template (a dict, a JSON file, a tokenizer config, a model folder),
:mod:`.load` checks it once, naming every problem by its key, :mod:`.run` applies it to a
reply (regions, then the message dict) with :mod:`.content` (the content parsers and
transforms) and :mod:`.call_list` (the ``python-call-list`` parser), and
:mod:`.text_format` makes the whole a text format: answer, reasoning and calls apart.
"""
