// Which Python runs the server, and whether the ascend_migrate package is installed there.
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import { SECTION } from './settings';

export const PACKAGE_NAME = 'ascend-migrate';
const PYTHON_EXTENSION_ID = 'ms-python.python';

// `python -m ascend_migrate` and a bare `python -c "import ascend_migrate"` look the package up with the
// workspace folder first on sys.path, so a workspace file or folder named ascend_migrate would be imported,
// and run, instead of the tool. `-c` puts exactly '' (the working directory) first, so dropping that entry
// before the import is exact on every supported Python (3.10 has no -P). tests/reliability/test_safety.py
// runs these two strings, read from this file, inside such a workspace.
export const PROBE_SOURCE = "import sys; sys.path[:1] == [''] and sys.path.pop(0); import ascend_migrate";
export const SERVER_SOURCE =
  "import sys; sys.path[:1] == [''] and sys.path.pop(0); from ascend_migrate.cli import main; sys.exit(main())";

export interface Interpreter {
  /** The executable (a path, or a command found on PATH). */
  command: string;
  /** Where the choice came from, for the output channel and messages. */
  origin: 'setting' | 'python extension' | 'default';
}

// The part of the Python extension's public API that is used here (ms-python.python ≥ 2022.x).
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

async function pythonExtensionApi(): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (!extension) {
    return undefined;
  }
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return undefined;
  }
}

/** The setting `ascendMigrate.interpreter`, else the Python extension's active interpreter, else python3. */
export async function resolveInterpreter(resource?: vscode.Uri): Promise<Interpreter> {
  const configured = vscode.workspace.getConfiguration(SECTION, resource).get<string>('interpreter', '').trim();
  if (configured) {
    return { command: expandVariables(configured, resource), origin: 'setting' };
  }
  const api = await pythonExtensionApi();
  const active = api?.environments?.getActiveEnvironmentPath(resource)?.path;
  if (active) {
    return { command: active, origin: 'python extension' };
  }
  const execCommand = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
  if (execCommand && execCommand.length === 1 && execCommand[0]) {
    return { command: execCommand[0], origin: 'python extension' };
  }
  return { command: 'python3', origin: 'default' };
}

/** Fires when the Python extension's active interpreter changes (never, when it is not installed). */
export async function onPythonInterpreterChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  const api = await pythonExtensionApi();
  return api?.environments?.onDidChangeActiveEnvironmentPath?.(() => listener());
}

function expandVariables(value: string, resource?: vscode.Uri): string {
  const folder = (resource && vscode.workspace.getWorkspaceFolder(resource)) ?? vscode.workspace.workspaceFolders?.[0];
  return value
    .replace(/\$\{workspaceFolder\}/g, folder?.uri.fsPath ?? '')
    .replace(/\$\{userHome\}/g, process.env.HOME ?? process.env.USERPROFILE ?? '')
    .replace(/^~(?=\/|\\|$)/, process.env.HOME ?? process.env.USERPROFILE ?? '~');
}

export type ProbeResult = { installed: true } | { installed: false; reason: string };

/** Import ascend_migrate in the interpreter; a missing interpreter and a missing package both say why. */
export function probePackage(interpreter: Interpreter, cwd?: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      interpreter.command,
      ['-c', PROBE_SOURCE],
      { cwd, timeout: 30_000, windowsHide: true },
      (error, _stdout, stderr) => {
        if (!error) {
          resolve({ installed: true });
        } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve({ installed: false, reason: `the interpreter ${interpreter.command} was not found` });
        } else {
          const lastLine = stderr.trim().split(/\r?\n/).pop() ?? error.message;
          resolve({ installed: false, reason: lastLine });
        }
      },
    );
  });
}

/** The exact command that installs the server into `interpreter`, quoted for the integrated terminal. */
export function pipInstallCommand(interpreter: Interpreter): string {
  const executable = /[\s"'$`\\]/.test(interpreter.command)
    ? `"${interpreter.command.replace(/(["$`\\])/g, '\\$1')}"`
    : interpreter.command;
  return `${executable} -m pip install ${PACKAGE_NAME}`;
}
