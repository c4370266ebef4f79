"""toolwire and the objects around it: SDK response objects in (:mod:`.objects`), and
conversions out to the ecosystem's call types (:mod:`.langchain`, :mod:`.pydantic_ai`,
:mod:`.mcp`). Nothing here is imported by a plain ``import toolwire`` or ``extract``:
each module loads when first used, and none imports its library unless it is asked for
that library's own objects."""
