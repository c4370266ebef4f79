"""The values toolwire hands over, at the bottom of the layers: they import no engine.

:mod:`.toolcall` (:class:`ToolCall`, :class:`ArgumentError`), :mod:`.server_call`
(:class:`ServerToolCall`), :mod:`.records` (where each item of a reply stood),
:mod:`.reply` (:class:`Reply`, the tool-loop split) and :mod:`.reply_json` (it as JSON data),
:mod:`.text_reply` (:class:`TextReply`), :mod:`.arguments` (the arguments decoding table),
:mod:`.jsontext` (strict JSON text with portable limits) and :mod:`.json_values` (JSON values
copied and compared). Each module is imported by name: nothing is re-exported here, so a
process loads only the values it uses.
"""
