// The status-bar item that shows the migration target and switches it on a click.
import * as vscode from 'vscode';
import { SECTION, TARGET_LABELS, currentTarget } from './settings';

export const SWITCH_TARGET_COMMAND = 'ascendMigrate.switchTarget';

export class TargetStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly listener: vscode.Disposable;

  constructor() {
    this.item = vscode.window.createStatusBarItem('ascendMigrate.target', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Ascend Migrate Target';
    this.item.command = SWITCH_TARGET_COMMAND;
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.target`)) {
        this.refresh();
      }
    });
    this.refresh();
    this.item.show();
  }

  refresh(): void {
    const target = currentTarget(vscode.window.activeTextEditor?.document.uri);
    const other = target === 'npu' ? 'mindspore' : 'npu';
    this.item.text = `Ascend: ${TARGET_LABELS[target]}`;
    this.item.tooltip = `Migration target: ${TARGET_LABELS[target]}. Click to switch to ${TARGET_LABELS[other]}.`;
  }

  dispose(): void {
    this.listener.dispose();
    this.item.dispose();
  }
}
