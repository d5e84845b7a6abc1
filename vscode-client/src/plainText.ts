// VS Code shows diagnostic messages and code-action titles as plain text, where the server's Markdown code
// spans (`torch.cuda.synchronize`) would show their backticks: this turns them into readable text.
import * as vscode from 'vscode';

const CODE_SPAN = /`([^`\n]+)`/g;
const ALREADY_QUOTED = /^(['"]).*\1$/s;

/**
 * A code span's text without its backticks: a name or an already quoted literal stands as it is
 * (torch.cuda.synchronize, 'nccl'); a phrase with spaces gets quotes so that it still reads as code
 * ('import torch' without 'import torch_npu').
 */
export function plainText(message: string): string {
  return message.replace(CODE_SPAN, (_span, code: string) =>
    ALREADY_QUOTED.test(code) || !/\s/.test(code) ? code : `'${code}'`,
  );
}

export function plainDiagnostic(diagnostic: vscode.Diagnostic): vscode.Diagnostic {
  diagnostic.message = plainText(diagnostic.message);
  for (const related of diagnostic.relatedInformation ?? []) {
    related.message = plainText(related.message);
  }
  return diagnostic;
}

export function plainCodeAction<T extends vscode.Command | vscode.CodeAction>(action: T): T {
  action.title = plainText(action.title);
  return action;
}
