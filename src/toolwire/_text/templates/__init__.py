"""Hugging Face response templates run as toolwire text formats (specs/README.md §1b.13).

:mod:`.template_source` finds a template (a dict, a JSON file, a tokenizer config, a model
folder), :mod:`.template_check` checks it once, naming every problem by its key,
:mod:`.template_scan` applies it to a reply (regions, then the message dict) with
:mod:`.content_parsers` (the content parsers and transforms) and :mod:`.call_list` (the
``python-call-list`` parser), and
:mod:`.text_format` makes the whole a text format: answer, reasoning and calls apart.
"""
