rootProject.name = "ascend-migrate-intellij"
