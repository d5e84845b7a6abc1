"""The hover tells a difference the side-by-side run saw only on edge inputs (NaN, integer dtypes, masked rows) in
one line, with the real knowledge base, while the call itself gets no warning for it."""

from __future__ import annotations

import pytest
from lsp_session import diagnostics_for, open_document, session
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")


client = session({"target": "mindspore"}, clients=["visual-studio-code"], mappings=None)

SOURCE = """import torch
import torch.nn.functional as F
x = torch.zeros(3)
y = F.relu(x)
z = torch.round(x, decimals=1)
"""


async def hover_text(client, uri: str, line: int, character: int) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))
    )
    assert hover is not None
    return hover.contents.value


async def test_an_edge_only_difference_is_one_hover_line_and_no_warning(client):
    uri = "file:///project/edges.py"
    open_document(client, uri, SOURCE)
    diagnostics = await diagnostics_for(client, uri, 1)
    relu = [d for d in diagnostics if d.range.start.line == 3]
    assert relu and all(d.severity == types.DiagnosticSeverity.Information for d in relu)
    assert all("NaN where the other gives a number" not in d.message for d in relu)  # the message stays short
    text = await hover_text(client, uri, 3, 7)
    lines = [line for line in text.split("\n\n") if line.startswith("**Edge inputs:**")]
    assert lines == ["**Edge inputs:** NaN and inf: NaN where the other gives a number; run side by side on the CPU "
                     "(torch 2.13.0+cpu, mindspore 2.10.0) from float32[3, 4]. relu(-0.0) is -0.0 in torch and 0.0 in "
                     "MindSpore: a zero of the other sign, equal under == and in sums; only signbit, copysign, atan2 or "
                     "1/x see it (edge-input sweep, run in torch 2.13.0 and mindspore 2.10.0 on the CPU)."]
    assert "Differs only on edge inputs (NaN and inf); ordinary inputs agree." in text


async def test_a_difference_on_ordinary_inputs_has_no_edge_line(client):
    uri = "file:///project/ordinary.py"
    open_document(client, uri, SOURCE)
    await diagnostics_for(client, uri, 1)
    text = await hover_text(client, uri, 4, 12)  # torch.round(decimals=1): refused by MindSpore's CPU kernel
    assert text.startswith("**`torch.round`**") and "For Round only support decimals equal 0" in text
    assert "**Edge inputs:**" not in text
