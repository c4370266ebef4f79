"""The payload grammars: each reads the text of one call block as the calls it holds.

:mod:`.base` is what every grammar shares (the interface, strict JSON values, names);
then one module per grammar a text spec names — :mod:`.json`, :mod:`.head_json`,
:mod:`.xml_parameters`, :mod:`.xml_elements`, :mod:`.call_object`, :mod:`.pythonic` — and
what single grammars lean on: :mod:`.partial_json` (the JSON a reply was cut inside),
:mod:`.pyliteral` (Python literals read, never evaluated), :mod:`.tagnames` (quoted
attribute names).
"""
