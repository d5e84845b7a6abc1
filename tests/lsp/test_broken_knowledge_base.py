"""A broken mappings table: one clear message naming the file and line, and a server that keeps answering."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_session import HERE, open_document, session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")
BROKEN = HERE / "broken_mappings"

client = session({"target": "npu"}, clients=["visual-studio-code"], mappings=BROKEN)


async def test_a_broken_knowledge_base_is_reported_once_and_the_server_keeps_answering(client):
    for index in range(3):
        open_document(client, f"file:///broken/script_{index}.py", "import torch\ntorch.cuda.synchronize()\n")
    await wait_until(lambda: client.messages, what="a showMessage")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri="file:///broken/script_0.py"), position=types.Position(0, 0))
    )
    assert hover is None
    (message,) = client.messages
    assert message.type == types.MessageType.Error
    assert message.message.startswith(f"The ascend-migrate knowledge base is broken: {BROKEN / 'broken.yaml'}:6: unknown category 'npu-renamed'")
    assert not any(uri.startswith("file:///broken/") for uri in client.published)
