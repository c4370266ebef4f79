"""Tool calls written inside model text, read by declarative text specs.

Open-weight models served without a tool-call parser write their calls into the
reply: ``<tool_call>{…}</tool_call>`` (Hermes), ``[TOOL_CALLS]…`` (Mistral),
DeepSeek's tool-calls-begin token with its fullwidth bars, and so on. Where vLLM and SGLang keep one
hand-written parser class per model family, toolwire describes each format as a YAML
file under ``specs/text/`` (markers, how blocks nest, a payload grammar, JMESPath
selectors) and runs them all with one linear-time scanner.

Modules, one duty each: :mod:`.compile` loads and checks a spec (with :mod:`.validate`
for the meta-schema, :mod:`.rules` and :mod:`.layout` for the rest, :mod:`.markers` for
``${name}`` placeholders), :mod:`.spec` holds it, :mod:`.build` makes a
:class:`~.scanner.Scanner` for given parameters, :mod:`.scanner` scans a reply (reasoning
regions in :mod:`.regions`, sections) and :mod:`.blocks` reads its blocks (with
:mod:`.occurrences`), the :mod:`.grammars` read one block each, :mod:`.harmony` reads
gpt-oss's messages, :mod:`.typed` types XML values by the tool's schema, and
:mod:`.templates` runs Hugging Face response templates. The reading is a
:class:`~toolwire.TextReply` (:mod:`toolwire._values.text_reply`).
"""

from __future__ import annotations

from .._values.text_reply import TextRegion, TextReply
from .compile import compile_text_spec, load_text_spec
from .extract import (
    bundled_text_specs,
    extract_from_text,
    extract_hermes_from_text,
    extract_text,
    read_text,
    read_text_spec,
)
from .spec import TextSpec

__all__ = [
    "TextRegion",
    "TextReply",
    "TextSpec",
    "bundled_text_specs",
    "compile_text_spec",
    "extract_from_text",
    "extract_hermes_from_text",
    "extract_text",
    "load_text_spec",
    "read_text",
    "read_text_spec",
]
