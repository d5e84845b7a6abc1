// The palette commands. Each one that needs the server sends `workspace/executeCommand` with the
// server's command name (ascend-migrate.*); the extension's own ids (ascendMigrate.*) differ so that
// they never collide with the commands vscode-languageclient registers for the server.
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { plainText } from './plainText';
import { currentTarget } from './settings';

/** The `source` of the server's diagnostics. */
export const SOURCE = 'ascend-migrate';
const SCAN_AND_EXPORT = 'Scan Workspace, Then Export';
const SHOW_PROBLEMS = 'Show Problems';

export const SERVER_COMMANDS = {
  scanWorkspace: 'ascend-migrate.scanWorkspace',
  exportReport: 'ascend-migrate.exportReport',
  lookup: 'ascend-migrate.lookup',
  fixAll: 'ascend-migrate.fixAll',
} as const;

const REPORT_FORMATS: { format: string; extension: string; description: string }[] = [
  { format: 'html', extension: 'html', description: 'a page to read in a browser' },
  { format: 'sarif', extension: 'sarif', description: 'SARIF 2.1.0, for code-scanning tools' },
  { format: 'json', extension: 'json', description: 'every finding, machine-readable' },
  { format: 'csv', extension: 'csv', description: 'a spreadsheet' },
  { format: 'text', extension: 'txt', description: 'the CLI summary' },
];

/** Gives the running client, or says why there is none. */
export type ClientProvider = () => LanguageClient | undefined;

async function runServerCommand<T>(client: LanguageClient, command: string, args: unknown[]): Promise<T> {
  return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
}

function requireClient(clients: ClientProvider): LanguageClient | undefined {
  const client = clients();
  if (!client || !client.isRunning()) {
    void vscode.window.showWarningMessage(
      'Ascend Migrate: the language server is not running. See "Ascend Migrate: Show Output" for why.',
    );
    return undefined;
  }
  return client;
}

/** The palette titles of the server's commands, for its error messages: users know those, not the ids. */
const COMMAND_TITLES: Record<string, string> = {
  [SERVER_COMMANDS.scanWorkspace]: '"Ascend Migrate: Scan Workspace"',
  [SERVER_COMMANDS.exportReport]: '"Ascend Migrate: Export Report"',
  [SERVER_COMMANDS.lookup]: '"Ascend Migrate: Look Up API Mapping"',
  [SERVER_COMMANDS.fixAll]: '"Ascend Migrate: Fix All in File"',
};

/** A server error in the user's words: no leading command id, other ids named by their palette titles. */
export function userMessage(error: unknown): string {
  const message = plainText(error instanceof Error ? error.message : String(error));
  return message
    .replace(/^ascend-migrate\.[A-Za-z]+: /, '')
    .replace(/ascend-migrate\.[A-Za-z]+/g, (id) => COMMAND_TITLES[id] ?? id);
}

function reportFailure(action: string, error: unknown): void {
  void vscode.window.showErrorMessage(`Ascend Migrate: ${action} failed: ${userMessage(error)}`);
}

// The clients whose server has finished a workspace scan: Export Report needs one, and a target switch
// re-runs it. A restarted server is a new client and has scanned nothing.
const scannedBy = new WeakSet<LanguageClient>();

export function hasScanned(client: LanguageClient | undefined): boolean {
  return !!client && scannedBy.has(client);
}

/** Scan the workspace and say what was found; false when the scan did not run or failed. */
export async function scanWorkspace(clients: ClientProvider): Promise<boolean> {
  const client = requireClient(clients);
  if (!client) {
    return false;
  }
  try {
    const summary = await runServerCommand<unknown>(client, SERVER_COMMANDS.scanWorkspace, []);
    scannedBy.add(client);
    const sentence = describeScan(summary, hintsShown());
    const categories = describeCategories(summary);
    client.outputChannel.appendLine(`Workspace scan: ${sentence}${categories ? ` By category: ${categories}.` : ''}`);
    // With a button the notification opens in full; a plain one is cut to a line.
    void vscode.window.showInformationMessage(`Ascend Migrate: ${sentence}`, SHOW_PROBLEMS).then((choice) => {
      if (choice === SHOW_PROBLEMS) {
        void vscode.commands.executeCommand('workbench.actions.view.problems');
      }
    });
    return true;
  } catch (error) {
    reportFailure('the workspace scan', error);
    return false;
  }
}

/**
 * Scan again after the target changed, so that files no editor has open show the new target's findings
 * instead of the old one's. Only when this server has scanned before: a switch never starts a first scan.
 */
export async function rescanAfterTargetChange(clients: ClientProvider, targetLabel: string): Promise<void> {
  const client = clients();
  if (!client?.isRunning() || !hasScanned(client)) {
    return;
  }
  const status = vscode.window.setStatusBarMessage(`$(sync~spin) Ascend Migrate: scanning the workspace again for ${targetLabel}`);
  try {
    const summary = await runServerCommand<unknown>(client, SERVER_COMMANDS.scanWorkspace, []);
    vscode.window.setStatusBarMessage(`Ascend Migrate: ${targetLabel}: ${describeScan(summary, hintsShown())}`, 10_000);
  } catch (error) {
    reportFailure('scanning the workspace again for the new target', error);
  } finally {
    status.dispose();
  }
}

/** How many of this extension's diagnostics are hints: VS Code's Problems panel does not list those. */
function hintsShown(): number {
  let hints = 0;
  for (const [, diagnostics] of vscode.languages.getDiagnostics()) {
    hints += diagnostics.filter(
      (diagnostic) => diagnostic.source === SOURCE && diagnostic.severity === vscode.DiagnosticSeverity.Hint,
    ).length;
  }
  return hints;
}

/**
 * The server's scan summary ({files, findings, categories, errors, cancelled}) in one sentence. `hints`
 * (counted from the diagnostics, unless the summary has `severities`) is said up front: the Problems panel
 * does not list hints, so a count without it would not match what the panel shows.
 */
export function describeScan(summary: unknown, hints = 0): string {
  if (summary === null || typeof summary !== 'object') {
    return 'workspace scanned.';
  }
  const record = summary as Record<string, unknown>;
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (typeof record.files === 'number') {
    parts.push(`${plural(record.files, 'file')} scanned`);
  }
  if (typeof record.findings === 'number') {
    let findings = plural(record.findings, 'finding');
    const severities = record.severities as Record<string, unknown> | undefined;
    const hintCount = typeof severities?.hint === 'number' ? severities.hint : Math.min(hints, record.findings);
    if (hintCount > 0) {
      const which = hintCount === record.findings ? 'all of them hints' : `${hintCount} of them ${hintCount === 1 ? 'a hint' : 'hints'}`;
      findings += `, ${which}, which the Problems panel does not list (dotted underlines in the editor)`;
    }
    parts.push(findings);
  }
  if (typeof record.errors === 'number' && record.errors > 0) {
    parts.push(`${plural(record.errors, 'file')} could not be analysed`);
  }
  const sentence = parts.length ? parts.join('; ') : 'workspace scanned';
  return record.cancelled === true ? `scan cancelled: ${sentence}.` : `${sentence}.`;
}

/** The summary's findings per category, for the output channel ("" when it has none). */
export function describeCategories(summary: unknown): string {
  const categories = summary && typeof summary === 'object' ? (summary as Record<string, unknown>).categories : undefined;
  if (!categories || typeof categories !== 'object') {
    return '';
  }
  return Object.entries(categories as Record<string, unknown>).map(([name, count]) => `${name} ${count}`).join(', ');
}

export async function exportReport(clients: ClientProvider): Promise<void> {
  const client = requireClient(clients);
  if (!client) {
    return;
  }
  // The report is the last workspace scan's: without one, say so before asking for a format and a path.
  if (!hasScanned(client)) {
    const choice = await vscode.window.showInformationMessage(
      'Ascend Migrate: a report covers a workspace scan, and none has run yet. Scan the workspace first?',
      SCAN_AND_EXPORT,
    );
    if (choice !== SCAN_AND_EXPORT || !(await scanWorkspace(clients)) || !hasScanned(clients())) {
      return;
    }
  }
  const picked = await vscode.window.showQuickPick(
    REPORT_FORMATS.map((entry) => ({ label: entry.format, description: entry.description, entry })),
    { title: 'Ascend Migrate: report format', placeHolder: 'The report covers the last workspace scan' },
  );
  if (!picked) {
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const defaultUri = folder
    ? vscode.Uri.joinPath(folder, `ascend-migrate-report.${picked.entry.extension}`)
    : undefined;
  const destination = await vscode.window.showSaveDialog({
    title: 'Ascend Migrate: save the report as',
    defaultUri,
    filters: { [picked.entry.format.toUpperCase()]: [picked.entry.extension] },
  });
  if (!destination) {
    return;
  }
  try {
    // The save dialog has asked before replacing a file; the server still keeps the report inside the
    // workspace folder and never writes through a symbolic link.
    await runServerCommand(client, SERVER_COMMANDS.exportReport, [
      { format: picked.entry.format, path: destination.fsPath, overwrite: true },
    ]);
    const open = await vscode.window.showInformationMessage(
      `Ascend Migrate: report written to ${path.basename(destination.fsPath)}.`,
      'Open',
    );
    if (open) {
      await vscode.commands.executeCommand('vscode.open', destination);
    }
  } catch (error) {
    reportFailure('exporting the report', error);
  }
}

/** One knowledge-base entry as `ascend-migrate.lookup` returns it (the fields this client shows). */
interface MappingEntry {
  api: string;
  route: string;
  category: string;
  code?: string | null;
  target?: string | null;
  note?: string | null;
  suggestion?: string | null;
  docs?: string[];
}

interface MappingItem extends vscode.QuickPickItem {
  entry: MappingEntry;
}

const ROUTE_LABELS: Record<string, string> = { npu: 'NPU', mindspore: 'MindSpore' };

function toMappingItem(entry: MappingEntry): MappingItem {
  const route = ROUTE_LABELS[entry.route] ?? entry.route;
  return {
    label: entry.api,
    description: `${route}: ${entry.target ? `→ ${entry.target}` : entry.category}`,
    detail: [entry.code, entry.category, entry.note || entry.suggestion].filter(Boolean).join(' · '),
    entry,
  };
}

function entriesOf(result: unknown): MappingEntry[] {
  return Array.isArray(result)
    ? result.filter((item): item is MappingEntry => !!item && typeof item === 'object' && typeof item.api === 'string')
    : [];
}

/** A quick pick that asks the server's knowledge base as the user types an API name or prefix. */
export async function lookUpMapping(clients: ClientProvider): Promise<void> {
  const client = requireClient(clients);
  if (!client) {
    return;
  }
  const pick = vscode.window.createQuickPick<MappingItem>();
  pick.title = 'Ascend Migrate: look up an API mapping';
  pick.placeholder = 'An API name or prefix, e.g. torch.cuda.synchronize or torch.nn.';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let latestQuery = 0;
  let timer: NodeJS.Timeout | undefined;
  const search = (value: string) => {
    const query = ++latestQuery;
    if (!value.trim()) {
      pick.items = [];
      return;
    }
    pick.busy = true;
    runServerCommand<unknown>(client, SERVER_COMMANDS.lookup, [value.trim()])
      .then((result) => {
        if (query === latestQuery) {
          // The entries for the current target first; the other route's stay for comparison.
          const target = currentTarget(vscode.window.activeTextEditor?.document.uri);
          const entries = entriesOf(result);
          pick.items = [
            ...entries.filter((entry) => entry.route === target),
            ...entries.filter((entry) => entry.route !== target),
          ].map(toMappingItem);
        }
      })
      .catch((error) => {
        if (query === latestQuery) {
          pick.items = [];
          pick.placeholder = `Look-up failed: ${error instanceof Error ? error.message : String(error)}`;
        }
      })
      .finally(() => {
        if (query === latestQuery) {
          pick.busy = false;
        }
      });
  };
  pick.onDidChangeValue((value) => {
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => search(value), 150);
  });
  const chosen = await new Promise<MappingItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  if (timer) {
    clearTimeout(timer);
  }
  pick.dispose();
  if (chosen) {
    await showMapping(chosen.entry);
  }
}

async function showMapping(entry: MappingEntry): Promise<void> {
  const route = ROUTE_LABELS[entry.route] ?? entry.route;
  const summary = entry.target
    ? `${entry.api} → ${entry.target} (${route}, ${entry.category})`
    : `${entry.api}: ${entry.category} (${route})`;
  const explanation = [entry.note, entry.suggestion].filter(Boolean).join(' ');
  const url = entry.docs?.[0];
  const actions = [...(entry.target ? ['Copy Replacement'] : []), ...(url ? ['Open Documentation'] : [])];
  const action = await vscode.window.showInformationMessage(
    explanation ? `${summary}: ${explanation}` : summary,
    ...actions,
  );
  if (action === 'Copy Replacement' && entry.target) {
    await vscode.env.clipboard.writeText(entry.target);
  } else if (action === 'Open Documentation' && url) {
    await vscode.env.openExternal(vscode.Uri.parse(url));
  }
}

export async function fixAllInFile(clients: ClientProvider): Promise<void> {
  const client = requireClient(clients);
  const editor = vscode.window.activeTextEditor;
  if (!client) {
    return;
  }
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage('Ascend Migrate: open a Python file to fix.');
    return;
  }
  try {
    const result = await runServerCommand<{ applied?: boolean; edits?: number }>(
      client, SERVER_COMMANDS.fixAll, [editor.document.uri.toString()],
    );
    if (!result?.edits) {
      void vscode.window.showInformationMessage('Ascend Migrate: no safe fixes in this file.');
    }
  } catch (error) {
    reportFailure('fixing the file', error);
  }
}
