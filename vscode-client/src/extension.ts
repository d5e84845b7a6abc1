// Entry point: starts the ascend-migrate server (`python -c SERVER_SOURCE serve --stdio`) through
// vscode-languageclient and wires the status-bar item and the palette commands to it.
import * as vscode from 'vscode';
import {
  ConfigurationParams,
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { exportReport, fixAllInFile, lookUpMapping, rescanAfterTargetChange, scanWorkspace } from './commands';
import {
  Interpreter,
  PACKAGE_NAME,
  onPythonInterpreterChange,
  pipInstallCommand,
  probePackage,
  resolveInterpreter,
  SERVER_SOURCE,
} from './interpreter';
import { plainCodeAction, plainDiagnostic } from './plainText';
import { SECTION, TARGET_LABELS, currentTarget, serverSettings, switchTarget, withoutClientKeys } from './settings';
import { SWITCH_TARGET_COMMAND, TargetStatusItem } from './statusBar';

const CLIENT_ID = 'ascendMigrate';
const CLIENT_NAME = 'Ascend Migrate';

/** Owns the language client: starts it with the right interpreter, restarts it, stops it. */
class ServerController {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private installTerminal: vscode.Terminal | undefined;

  constructor(private readonly output: vscode.OutputChannel) {}

  get current(): LanguageClient | undefined {
    return this.client;
  }

  start(): Promise<void> {
    this.starting ??= this.startOnce().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.starting;
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5_000);
      } catch (error) {
        this.output.appendLine(`Stopping the server failed: ${String(error)}`);
      }
    }
  }

  /** Push the current settings to the server (it also pulls them with workspace/configuration). */
  async sendSettings(): Promise<void> {
    if (this.client?.isRunning()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [SECTION]: serverSettings(workspaceScope()) },
      });
    }
  }

  private async startOnce(): Promise<void> {
    const scope = workspaceScope();
    const interpreter = await resolveInterpreter(scope);
    this.output.appendLine(`Python interpreter (${interpreter.origin}): ${interpreter.command}`);
    const probe = await probePackage(interpreter, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    if (!probe.installed) {
      this.output.appendLine(`Cannot start the server: ${probe.reason}`);
      void this.offerInstall(interpreter, probe.reason);
      return;
    }
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(interpreter), clientOptions(this.output));
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      this.output.appendLine(`The server did not start: ${String(error)}`);
      void vscode.window
        .showErrorMessage(`${CLIENT_NAME}: the language server did not start.`, 'Show Output')
        .then((choice) => choice && this.output.show());
    }
  }

  private async offerInstall(interpreter: Interpreter, reason: string): Promise<void> {
    if (/was not found$/.test(reason)) {
      const choice = await vscode.window.showErrorMessage(
        `${CLIENT_NAME}: ${reason}. Set "ascendMigrate.interpreter" to a Python ≥ 3.10 that has ${PACKAGE_NAME}.`,
        'Open Settings',
      );
      if (choice) {
        await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.interpreter`);
      }
      return;
    }
    const command = pipInstallCommand(interpreter);
    const choice = await vscode.window.showErrorMessage(
      `${CLIENT_NAME}: the Python package ${PACKAGE_NAME} is not installed for ${interpreter.command}. ` +
        `Install it with: ${command}`,
      'Install in Terminal',
      'Choose Interpreter',
      'Show Output',
    );
    if (choice === 'Install in Terminal') {
      this.installTerminal?.dispose();
      const terminal = vscode.window.createTerminal({ name: `${CLIENT_NAME}: pip install` });
      this.installTerminal = terminal;
      terminal.show();
      terminal.sendText(command);
      const restart = await vscode.window.showInformationMessage(
        `${CLIENT_NAME}: when pip has finished in the terminal, restart the server.`,
        'Restart Server',
      );
      if (restart) {
        await this.restart();
      }
    } else if (choice === 'Choose Interpreter') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.interpreter`);
    } else if (choice === 'Show Output') {
      this.output.show();
    }
  }
}

function workspaceScope(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

function serverOptions(interpreter: Interpreter): ServerOptions {
  // TransportKind.stdio appends `--stdio`: the server runs as `python -c SERVER_SOURCE serve --stdio`, never
  // `python -m ascend_migrate`, which would import a workspace's own ascend_migrate first (see SERVER_SOURCE).
  return {
    command: interpreter.command,
    args: ['-c', SERVER_SOURCE, 'serve'],
    transport: TransportKind.stdio,
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, env: { ...process.env, PYTHONUNBUFFERED: '1' } },
  };
}

function clientOptions(output: vscode.OutputChannel): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      // The Python cells of any notebook (Jupyter's .ipynb: notebook type 'jupyter-notebook'); the server
      // syncs them as notebook documents (LSP 3.17) and analyses the cells together, in order.
      { notebook: '*', language: 'python' },
    ],
    outputChannel: output,
    // The server also pulls these with workspace/configuration, and registers its own pyproject.toml watcher.
    initializationOptions: { [SECTION]: serverSettings(workspaceScope()) },
    middleware: {
      // VS Code shows these as plain text: the server's `code spans` would keep their backticks.
      handleDiagnostics: (uri, diagnostics, next) => next(uri, diagnostics.map(plainDiagnostic)),
      provideCodeActions: async (document, range, context, token, next) =>
        (await next(document, range, context, token))?.map(plainCodeAction),
      resolveCodeAction: async (item, token, next) => {
        const resolved = await next(item, token);
        return resolved ? plainCodeAction(resolved) : resolved;
      },
      workspace: {
        // The section also holds the extension's own settings (interpreter, trace): the server never sees them.
        configuration: async (params: ConfigurationParams, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return result.map((value, index) =>
            params.items[index]?.section === SECTION ? withoutClientKeys(value) : value,
          );
        },
      },
    },
  };
}

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(CLIENT_NAME);
  controller = new ServerController(output);
  const status = new TargetStatusItem();
  const server = controller;
  const clients = () => server.current;
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('ascendMigrate.scanWorkspace', () => scanWorkspace(clients)),
    vscode.commands.registerCommand('ascendMigrate.exportReport', () => exportReport(clients)),
    vscode.commands.registerCommand('ascendMigrate.lookup', () => lookUpMapping(clients)),
    vscode.commands.registerCommand('ascendMigrate.fixAll', () => fixAllInFile(clients)),
    vscode.commands.registerCommand('ascendMigrate.restartServer', () => server.restart()),
    vscode.commands.registerCommand('ascendMigrate.showOutput', () => output.show()),
    vscode.commands.registerCommand(SWITCH_TARGET_COMMAND, async () => {
      const target = await switchTarget(workspaceScope());
      if (target) {
        vscode.window.setStatusBarMessage(`${CLIENT_NAME}: target ${TARGET_LABELS[target]}`, 3_000);
      }
    }),
    vscode.window.onDidChangeActiveTextEditor(() => status.refresh()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.interpreter`)) {
        void server.restart();
      } else if (event.affectsConfiguration(SECTION)) {
        // The settings reach the server before the scan asks for them: it re-scans for the new target.
        const retarget = event.affectsConfiguration(`${SECTION}.target`);
        void server.sendSettings().then(() =>
          retarget ? rescanAfterTargetChange(clients, TARGET_LABELS[currentTarget(workspaceScope())]) : undefined,
        );
      }
    }),
  );
  const pythonListener = await onPythonInterpreterChange(() => {
    const configured = vscode.workspace.getConfiguration(SECTION, workspaceScope()).get<string>('interpreter', '');
    if (!configured.trim()) {
      void server.restart();
    }
  });
  if (pythonListener) {
    context.subscriptions.push(pythonListener);
  }
  // Not awaited: activation returns at once, and the commands say so when the server is not running yet.
  void server.start();
}

export function deactivate(): Promise<void> | undefined {
  return controller?.stop();
}
