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

interface ScopeItem extends vscode.QuickPickItem {
  where: vscode.ConfigurationTarget;
}

/**
 * Switch the target where the user set it: the innermost scope that has a value. When none has one and a
 * workspace is open, ask whether the choice goes to the user settings or into the project's
 * .vscode/settings.json (never write into a repository unasked); the value then lives there, so the next
 * switch goes to the same place without asking. Undefined when the question was dismissed.
 */
export async function switchTarget(scope?: vscode.ConfigurationScope): Promise<Target | undefined> {
  const next: Target = currentTarget(scope) === 'npu' ? 'mindspore' : 'npu';
  const configuration = vscode.workspace.getConfiguration(SECTION, scope);
  const inspected = configuration.inspect<string>('target');
  let where: vscode.ConfigurationTarget | undefined;
  if (inspected?.workspaceFolderValue !== undefined) {
    where = vscode.ConfigurationTarget.WorkspaceFolder;
  } else if (inspected?.workspaceValue !== undefined) {
    where = vscode.ConfigurationTarget.Workspace;
  } else if (inspected?.globalValue !== undefined || !vscode.workspace.workspaceFolders?.length) {
    where = vscode.ConfigurationTarget.Global;
  } else {
    where = await askScope(next);
  }
  if (where === undefined) {
    return undefined;
  }
  await configuration.update('target', next, where);
  return next;
}

async function askScope(next: Target): Promise<vscode.ConfigurationTarget | undefined> {
  const items: ScopeItem[] = [
    {
      label: '$(account) User settings',
      description: 'every workspace; nothing is written into this project',
      where: vscode.ConfigurationTarget.Global,
    },
    {
      label: '$(folder) Workspace settings',
      description: "this project only, in its .vscode/settings.json (shared with the project's repository)",
      where: vscode.ConfigurationTarget.Workspace,
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Ascend Migrate: switch the target to ${TARGET_LABELS[next]}. Save it where?`,
    placeHolder: 'Later switches save to the same place without asking',
  });
  return picked?.where;
}
