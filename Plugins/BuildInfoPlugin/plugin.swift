import Foundation
import PackagePlugin

/// Before every build, writes the git commit the sources are at into a Swift file of the target
/// that applies it (`scripts/build-info.sh`); outside a git checkout the commit is "unknown", so a
/// source archive or a clone without tags builds all the same.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("generated", isDirectory: true)
        let script = context.package.directoryURL.appendingPathComponent("scripts/build-info.sh")
        return [.prebuildCommand(
            displayName: "Writing the commit of the build",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [script.path, context.package.directoryURL.path, output.path],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            outputFilesDirectory: output)]
    }
}
