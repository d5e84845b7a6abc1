// The palette commands. Each one that needs the server sends `workspace/executeCommand` with the
// server's command name (ascend-migrate.*); the extension's own ids (ascendMigrate.*) differ so that
// they never collide with the commands vscode-languageclient registers for the server.
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { currentTarget } from './settings';

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

function reportFailure(action: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  void vscode.window.showErrorMessage(`Ascend Migrate: ${action} failed: ${message}`);
}

export async function scanWorkspace(clients: ClientProvider): Promise<void> {
  const client = requireClient(clients);
  if (!client) {
    return;
  }
  try {
    const summary = await runServerCommand<unknown>(client, SERVER_COMMANDS.scanWorkspace, []);
    void vscode.window.showInformationMessage(`Ascend Migrate: ${describeScan(summary)}`);
  } catch (error) {
    reportFailure('the workspace scan', error);
  }
}

/** The server's scan summary ({files, findings, categories, errors, cancelled}) in one sentence. */
export function describeScan(summary: unknown): string {
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
    const categories = record.categories;
    if (categories && typeof categories === 'object') {
      const counts = Object.entries(categories as Record<string, unknown>).map(([name, count]) => `${name} ${count}`);
      if (counts.length) {
        findings += ` (${counts.join(', ')})`;
      }
    }
    parts.push(findings);
  }
  if (typeof record.errors === 'number' && record.errors > 0) {
    parts.push(`${plural(record.errors, 'file')} could not be analysed`);
  }
  const sentence = parts.length ? parts.join(', ') : 'workspace scanned';
  return record.cancelled === true ? `scan cancelled: ${sentence}.` : `${sentence}.`;
}

export async function exportReport(clients: ClientProvider): Promise<void> {
  const client = requireClient(clients);
  if (!client) {
    return;
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
