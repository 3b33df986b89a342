// The MRDS spec's language server for VS Code: starts `cargo xtask lsp` (or the command set in
// `mrds.server.command`) in the workspace folder, for the YAML files under `spec/`.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function start(context: vscode.ExtensionContext): void {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    return;
  }
  const config = vscode.workspace.getConfiguration("mrds");
  const [command, ...args] = config.get<string[]>("server.command", ["cargo", "xtask", "lsp"]);
  const base = config.get<string>("base", "");
  const serverOptions: ServerOptions = {
    command,
    args: base ? [...args, "--base", base] : args,
    options: { cwd: folder.uri.fsPath },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml", pattern: `${folder.uri.fsPath}/spec/**/*.{yaml,yml}` },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, "spec/**/*.{yaml,yml}"),
      ),
    },
  };
  client = new LanguageClient("mrds", "MRDS spec", serverOptions, clientOptions);
  void client.start();
}

export function activate(context: vscode.ExtensionContext): void {
  start(context);
  context.subscriptions.push(
    vscode.commands.registerCommand("mrds.restartServer", async () => {
      await client?.stop();
      start(context);
    }),
  );
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
