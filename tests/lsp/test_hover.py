"""Hover: the mapping of a flagged API with its parameter table; the status of an unflagged torch name."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_session import CLIENTS, config, diagnostics_for, encoding_of, open_document, start_session

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = """import torch
import torch.nn as nn

layer = nn.Linear(784, 10)
torch.cuda.synchronize()
activation = nn.ReLU()
layers = nn.Sequential(layer, activation)
"""


@pytest_lsp.fixture(config=config(), params=CLIENTS, scope="module")
async def client(lsp_client: LanguageClient, request):
    result = await start_session(lsp_client, request.param, options={"target": "mindspore"})
    lsp_client.encoding = encoding_of(result)
    open_document(lsp_client, "file:///project/model.py", SCRIPT)
    await diagnostics_for(lsp_client, "file:///project/model.py", 1)
    yield
    await lsp_client.shutdown_session()


async def hover_at(client: LanguageClient, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri="file:///project/model.py"), position=types.Position(line, character))
    )


async def test_hover_on_a_flagged_api_shows_its_mapping_and_parameter_table(client):
    hover = await hover_at(client, 3, 12)
    assert hover.range == types.Range(start=types.Position(3, 8), end=types.Position(3, 17))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value == "\n\n".join(
        [
            "**`torch.nn.Linear`** → `mindspore.nn.Dense`",
            "`torch.nn.Linear` maps to `mindspore.nn.Dense`, which differs: Dense initialises its weight with a normal "
            "distribution unless weight_init is given.",
            # above the fold, right after the summary; name=default in one cell, notes under the table
            "| PyTorch | MindSpore | change |\n"
            "|---|---|---|\n"
            "| `in_features` | `in_channels` | renamed |\n"
            "| `out_features` | `out_channels` | renamed |\n"
            "| `bias=True` | `has_bias=True` | renamed |\n"
            "| — | `weight_init=None` | added |\n\n"
            "- `weight_init`: the initialiser differs from PyTorch's",
            "Use mindspore.nn.Dense; its parameters are named differently.",
            # the note said nothing the summary had not said: no **Note:** paragraph
            "Documentation: [www.mindspore.cn](https://www.mindspore.cn/docs/en/r2.10/api_python/nn/mindspore.nn.Dense.html)",
            "MS102 · ms-differs · target mindspore · confidence exact · where this comes from: `ascend-migrate kb lookup torch.nn.Linear`",
        ]
    )
    assert "Source:" not in hover.contents.value  # provenance is for kb lookup


async def test_hover_on_an_api_with_no_equivalent_says_so(client):
    hover = await hover_at(client, 4, 8)
    assert hover.contents.value.startswith("**`torch.cuda.synchronize`** (no MindSpore equivalent)\n\n")
    assert "MS103 · ms-unsupported" in hover.contents.value


async def test_hover_on_an_unflagged_torch_name_gives_its_status(client):
    hover = await hover_at(client, 6, 13)
    assert hover.range == types.Range(start=types.Position(6, 9), end=types.Position(6, 22))
    assert hover.contents.value == (
        "**`torch.nn.Sequential`**\n\nThe knowledge base has no MindSpore mapping for this name."
    )


async def test_hover_on_the_module_part_of_a_dotted_name_is_about_that_module(client):
    hover = await hover_at(client, 6, 10)
    assert hover.range == types.Range(start=types.Position(6, 9), end=types.Position(6, 11))
    assert hover.contents.value.startswith("**`torch.nn`**")


async def test_hover_on_plain_python_gives_nothing(client):
    assert await hover_at(client, 3, 2) is None
    assert await hover_at(client, 40, 0) is None


async def test_hover_resolves_names_through_the_engines_bindings(client):
    uri = "file:///project/imports.py"
    text = "import os; import torch.nn.functional as F\nfrom torch import \\\n    nn as tnn\ny = F.relu(x)\nz = tnn.Sequential()\n"
    open_document(client, uri, text)
    await diagnostics_for(client, uri, 1)
    for line, character, name in ((3, 7, "torch.nn.functional.relu"), (4, 9, "torch.nn.Sequential")):
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))
        )
        assert hover is not None and hover.contents.value.startswith(f"**`{name}`**"), (name, hover)
