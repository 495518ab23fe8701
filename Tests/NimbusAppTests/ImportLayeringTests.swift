import Foundation
import XCTest

/// The layering is what `Package.swift` lists: every module a target's files import is a target or
/// product that target lists (or a system module). SwiftPM lets a file import any module built before
/// it, so without this a module could reach past its layer and the build would still pass
/// (`NimbusApp` imported `NimbusResources` and `OpenCombineShim` without listing them).
final class ImportLayeringTests: XCTestCase {
    /// Modules of the toolchain and the platform, importable everywhere.
    private static let system: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Synchronization", "XCTest", "Testing",
    ]

    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testEveryImportIsListedInThePackage() throws {
        let targets = try Self.targets(in: String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8))
        XCTAssertGreaterThanOrEqual(targets.count, 20, "the manifest's targets were not read: \(targets.map(\.name))")
        var checked = 0
        var problems: [String] = []
        for target in targets {
            let folder = Self.root.appendingPathComponent(target.path)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                problems.append("\(target.name): no folder \(target.path)")
                continue
            }
            for case let file as URL in files where file.pathExtension == "swift" {
                for module in Self.imports(try String(contentsOf: file, encoding: .utf8))
                where module != target.name && !target.dependencies.contains(module) && !Self.system.contains(module) {
                    problems.append("\(file.path.dropFirst(Self.root.path.count + 1)) imports \(module), which \(target.name) does not list")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 300, "too few files read")
        XCTAssertEqual(problems, [])
    }

    /// The parser finds what a manifest with a stray import would hide.
    func testTheParsersOwnCases() throws {
        let manifest = """
            .target(name: "A", dependencies: ["B", .product(name: "P", package: "Pkg")]),
            // .target(name: "Commented", dependencies: []),
            .testTarget(name: "ATests", dependencies: ["A"], exclude: ["x"]),
            .executableTarget(name: "Tool", dependencies: ["A"], path: "Tools/Tool"),
            .plugin(name: "Plug", capability: .buildTool()),
            """
        let targets = try Self.targets(in: manifest)
        XCTAssertEqual(targets.map(\.name), ["A", "ATests", "Tool"])
        XCTAssertEqual(targets.map(\.path), ["Sources/A", "Tests/ATests", "Tools/Tool"])
        XCTAssertEqual(targets[0].dependencies, ["B", "P"])
        let source = "import A\n@testable import B\n@preconcurrency import C\nimport struct D.E\nlet s = \"\"\"\nimport Hidden\n\"\"\"\n  // import F\n"
        XCTAssertEqual(Self.imports(source), ["A", "B", "C", "D"])
    }

    struct Target {
        let name: String
        let path: String
        let dependencies: Set<String>
    }

    /// The source targets of a manifest written as ours is: `.target(name: "…", dependencies: […], path: "…")`.
    static func targets(in manifest: String) throws -> [Target] {
        let text = manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        let start = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#)
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        let ns = text as NSString
        return start.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            let kind = ns.substring(with: match.range(at: 1)), name = ns.substring(with: match.range(at: 2))
            let body = balanced(ns.substring(from: match.range.location + match.range.length), open: "(", close: ")")
            var dependencies: Set<String> = []
            if let list = body.range(of: #"dependencies:\s*\["#, options: .regularExpression) {
                // Products' package names are not modules.
                let deps = balanced(String(body[list.upperBound...]), open: "[", close: "]")
                    .replacingOccurrences(of: #"package:\s*"[^"]*""#, with: "", options: .regularExpression)
                let d = deps as NSString
                for m in quoted.matches(in: deps, range: NSRange(location: 0, length: d.length)) {
                    dependencies.insert(d.substring(with: m.range(at: 1)))
                }
            }
            var path = (kind == "testTarget" ? "Tests/" : "Sources/") + name
            if let p = body.range(of: #"path:\s*"([^"]+)""#, options: .regularExpression) {
                path = String(body[p]).components(separatedBy: "\"")[1]
            }
            return Target(name: name, path: path, dependencies: dependencies)
        }
    }

    /// `text` from its start up to the bracket that closes one already open.
    private static func balanced(_ text: String, open: Character, close: Character) -> String {
        var depth = 1
        var end = text.startIndex
        for i in text.indices {
            if text[i] == open { depth += 1 }
            if text[i] == close { depth -= 1 }
            if depth == 0 { end = i; break }
            end = text.index(after: i)
        }
        return String(text[..<end])
    }

    /// The modules a Swift file imports (not those in multi-line string literals or comments).
    static func imports(_ source: String) -> [String] {
        let pattern = try! NSRegularExpression(
            pattern: #"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)"#)
        var inString = false
        var modules: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let l = String(line)
            if l.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inString.toggle()
                continue
            }
            guard !inString else { continue }
            let ns = l as NSString
            if let m = pattern.firstMatch(in: l, range: NSRange(location: 0, length: ns.length)) {
                modules.append(ns.substring(with: m.range(at: 1)))
            }
        }
        return modules
    }
}
