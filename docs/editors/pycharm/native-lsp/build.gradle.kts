// A minimal plugin that starts the ascend-migrate language server through the IDE's own LSP support
// (PyCharm 2025.2.1 and later; before 2025.1 PyCharm Professional only). Build: `./gradlew buildPlugin`
// (Gradle 9, JDK 21), then Settings → Plugins → ⚙ → Install Plugin from Disk → build/distributions/*.zip.
plugins {
    id("org.jetbrains.kotlin.jvm") version "2.2.0"
    id("org.jetbrains.intellij.platform") version "2.11.0"
}

group = "io.ascendmigrate"
version = "0.1.0"

repositories {
    mavenCentral()
    intellijPlatform {
        defaultRepositories()
    }
}

dependencies {
    intellijPlatform {
        // The unified PyCharm; with a plugin release before 2.7 write pycharmProfessional("2025.2.1").
        pycharm("2025.2.1")
    }
}

kotlin {
    jvmToolchain(21)
}

intellijPlatform {
    pluginConfiguration {
        ideaVersion {
            sinceBuild = "252"
        }
    }
}
