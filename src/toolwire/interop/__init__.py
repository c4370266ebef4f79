"""toolwire and the objects around it: SDK response objects in (:mod:`.objects`), and
conversions out to the ecosystem's call types. Nothing here is imported by a plain
``import toolwire`` or ``extract``: each module loads when first used."""
