// The extension's view of the `ascendMigrate` settings: what goes to the server, and the target.
import * as vscode from 'vscode';

export const SECTION = 'ascendMigrate';

/** Keys of the `ascendMigrate` section that belong to the extension itself and never go to the server. */
const CLIENT_ONLY_KEYS = new Set(['interpreter', 'trace']);

export type Target = 'npu' | 'mindspore';

export const TARGET_LABELS: Record<Target, string> = { npu: 'NPU', mindspore: 'MindSpore' };

/** The settings the server understands, for one resource (file or folder), as a plain JSON object. */
export function serverSettings(scope?: vscode.ConfigurationScope | null): Record<string, unknown> {
  const configuration = vscode.workspace.getConfiguration(SECTION, scope ?? undefined);
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(JSON.parse(JSON.stringify(configuration)))) {
    if (!CLIENT_ONLY_KEYS.has(key)) {
      settings[key] = value;
    }
  }
  return settings;
}

/** Remove the client-only keys from a `workspace/configuration` answer for the whole section. */
export function withoutClientKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (!CLIENT_ONLY_KEYS.has(key)) {
      copy[key] = item;
    }
  }
  return copy;
}

export function currentTarget(scope?: vscode.ConfigurationScope): Target {
  const value = vscode.workspace.getConfiguration(SECTION, scope).get<string>('target', 'npu');
  return value === 'mindspore' ? 'mindspore' : 'npu';
}

/**
 * Switch the target where the user set it: the innermost scope that has a value, else the workspace (when
 * one is open) so that the choice stays with the project, else the user settings.
 */
export async function switchTarget(scope?: vscode.ConfigurationScope): Promise<Target> {
  const next: Target = currentTarget(scope) === 'npu' ? 'mindspore' : 'npu';
  const configuration = vscode.workspace.getConfiguration(SECTION, scope);
  const inspected = configuration.inspect<string>('target');
  let where: vscode.ConfigurationTarget;
  if (inspected?.workspaceFolderValue !== undefined) {
    where = vscode.ConfigurationTarget.WorkspaceFolder;
  } else if (inspected?.workspaceValue !== undefined) {
    where = vscode.ConfigurationTarget.Workspace;
  } else if (inspected?.globalValue !== undefined) {
    where = vscode.ConfigurationTarget.Global;
  } else {
    where = vscode.workspace.workspaceFolders?.length
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  }
  await configuration.update('target', next, where);
  return next;
}
