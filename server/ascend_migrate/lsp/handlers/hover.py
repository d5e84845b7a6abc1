"""textDocument/hover: a flagged API's mapping, or what the knowledge base knows of the name under the cursor."""

from __future__ import annotations

from lsprotocol import types

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.lsp import convert, engine, hover, weights_hint
from ascend_migrate.lsp.handlers.documents import settings_of
from ascend_migrate.lsp.server import AscendMigrateServer


def register(server: AscendMigrateServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: AscendMigrateServer, params: types.HoverParams) -> types.Hover | None:
        return _hover(ls, params)


def _hover(server: AscendMigrateServer, params: types.HoverParams) -> types.Hover | None:
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.kb.loader import KnowledgeBaseError

    with server.lock:
        document = server.documents.get(params.text_document.uri)
        if document is None:
            return None
        position, inside = document.position_from_client(params.position.line, params.position.character, server.encoding)
        if not inside:
            return None
        lines = list(document.lines)
        current = document.analysis is not None and document.analysis_version == document.version
        findings = list(document.analysis.findings) if current else []
        # The names the engine bound at module level; an older analysis still knows the file's imports.
        analysis = document.analysis
        settings = settings_of(server, document)
    line_number, column = position.line + 1, position.character + 1
    found_here = _findings_at(findings, line_number, column)
    try:
        knowledge_base = KnowledgeBase.load()
    except KnowledgeBaseError:
        return None  # already reported to the user when the server tried to load it

    if found_here:
        # Two findings on one span (AdamW: an NPU-affine replacement, and a caveat of fused=True) are one hover.
        text = "\n\n---\n\n".join(
            hover.finding_markdown(finding, knowledge_base.by_key.get(finding.entry_key) if finding.entry_key else None)
            for finding in found_here
        )
        finding = found_here[0]
        weights = weights_hint.hover_section(finding, lines[finding.line - 1] if finding.line <= len(lines) else "", settings.target)
        if weights:
            text += "\n\n" + weights
        start = convert.position(lines, finding.line, finding.column, server.encoding)
        end = convert.position(lines, finding.end_line, finding.end_column, server.encoding)
        return _markdown_hover(server, text, types.Range(start=start, end=end))
    content = lines[position.line].rstrip("\r\n")
    found = hover.name_at(content, position.character)
    if found is None:
        return None
    dotted, start_index, end_index = found
    qualified = engine.qualified_name(analysis, dotted)
    if qualified is None:
        return None
    unflagged = hover.unflagged_markdown(qualified, settings.target, knowledge_base.lookup(qualified))
    if unflagged is None:
        return None
    start = convert.position(lines, line_number, start_index + 1, server.encoding)
    end = convert.position(lines, line_number, end_index + 1, server.encoding)
    return _markdown_hover(server, unflagged, types.Range(start=start, end=end))


def _markdown_hover(server: AscendMigrateServer, text: str, range_: types.Range) -> types.Hover:
    kind = types.MarkupKind.Markdown if server.markdown_hover else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=text), range=range_)


def _findings_at(findings: list[Finding], line: int, column: int) -> list[Finding]:
    """The narrowest findings whose span contains (line, column), all of them when several share it; the
    column just past the end counts too."""
    best: list[Finding] = []
    best_size = None
    for finding in findings:
        if not (finding.line <= line <= finding.end_line):
            continue
        if line == finding.line and column < finding.column:
            continue
        if line == finding.end_line and column > finding.end_column:
            continue
        size = (finding.end_line - finding.line, finding.end_column - finding.column)
        if best_size is None or size < best_size:
            best, best_size = [finding], size
        elif size == best_size and (finding.line, finding.column) == (best[0].line, best[0].column):
            best.append(finding)
    return best
