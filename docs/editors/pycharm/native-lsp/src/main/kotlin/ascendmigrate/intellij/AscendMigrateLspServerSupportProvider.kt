// Starts `ascend-migrate serve` (the console script) for the Python files of a project, with the IDE's LSP client.
package ascendmigrate.intellij

import com.intellij.execution.configurations.GeneralCommandLine
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.platform.lsp.api.LspServerSupportProvider
import com.intellij.platform.lsp.api.ProjectWideLspServerDescriptor
import org.eclipse.lsp4j.ConfigurationItem
import java.io.File

class AscendMigrateLspServerSupportProvider : LspServerSupportProvider {
    override fun fileOpened(
        project: Project,
        file: VirtualFile,
        serverStarter: LspServerSupportProvider.LspServerStarter,
    ) {
        if (isPython(file)) {
            serverStarter.ensureServerStarted(AscendMigrateServerDescriptor(project))
        }
    }
}

private fun isPython(file: VirtualFile) = file.extension == "py"

private class AscendMigrateServerDescriptor(project: Project) :
    ProjectWideLspServerDescriptor(project, "ascend-migrate") {

    // The `ascendMigrate` settings (every key is in docs/editors/README.md). A project's
    // [tool.ascend-migrate] in pyproject.toml wins over them unless configurationPreference is "editorFirst".
    private val settings = mapOf(
        "target" to (System.getenv("ASCEND_MIGRATE_TARGET") ?: "npu"),
        "torchVersion" to "2.8",
        "mindsporeVersion" to "2.10",
    )

    override fun isSupportedFile(file: VirtualFile) = isPython(file)

    override fun createCommandLine(): GeneralCommandLine =
        GeneralCommandLine(consoleScript(), "serve").withWorkDirectory(project.basePath)

    override fun createInitializationOptions(): Any = mapOf("ascendMigrate" to settings)

    override fun getWorkspaceConfiguration(item: ConfigurationItem): Any? =
        if (item.section == "ascendMigrate") settings else null

    /**
     * $ASCEND_MIGRATE_COMMAND, else `ascend-migrate` on PATH. Never `python -m ascend_migrate` (with the project
     * as working directory Python would import a project file named ascend_migrate.py first), and never an
     * executable found inside the project (an untrusted repository could ship its own .venv/bin).
     */
    private fun consoleScript(): String =
        System.getenv("ASCEND_MIGRATE_COMMAND")?.takeIf { File(it).canExecute() } ?: "ascend-migrate"
}
