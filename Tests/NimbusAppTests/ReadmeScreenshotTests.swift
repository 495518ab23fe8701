import Foundation
import Testing
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The README's screenshots are pictures tapes draw (`scripts/screenshots.sh`): each committed
/// `docs/screenshots/NAME.svg` must be what `Snapshot NAME` of a `Tests/Tapes/readme-*.tape` draws now.
@Suite @MainActor struct ReadmeScreenshotTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func testEveryCommittedScreenshotIsWhatItsTapeDraws() throws {
        try mainActorTestEveryCommittedScreenshotIsWhatItsTapeDraws()
    }

    @MainActor
    private func mainActorTestEveryCommittedScreenshotIsWhatItsTapeDraws() throws {
        let fm = FileManager.default
        let tapes = Self.root.appendingPathComponent("Tests/Tapes")
        let committed = Self.root.appendingPathComponent("docs/screenshots")
        let drawn = fm.temporaryDirectory.appendingPathComponent("nimbus-screenshots-\(UUID().uuidString)")
        let home = fm.temporaryDirectory.appendingPathComponent("nimbus-screenshots-home-\(UUID().uuidString)")
        defer {
            try? fm.removeItem(at: drawn)
            try? fm.removeItem(at: home)
        }
        let files = try fm.contentsOfDirectory(atPath: tapes.path).filter { $0.hasPrefix("readme-") && $0.hasSuffix(".tape") }.sorted()
        #expect(files == ["readme-cities.tape", "readme-movies.tape", "readme-today.tape", "readme-weather.tape"])
        for file in files {
            let runner = TapeRunner(snapshotDirectory: tapes.appendingPathComponent("__snapshots__"), record: false,
                                    baseEnvironment: ["HOME": home.path], outputs: .init(svgDirectory: drawn))
            try runner.run(Tape(name: file, source: String(contentsOf: tapes.appendingPathComponent(file), encoding: .utf8)))
        }
        let names = try fm.contentsOfDirectory(atPath: drawn.path).sorted()
        #expect(names.count == 8, "Cities, a city's weather with its map, Today and Movies, in English and Korean")
        #expect(try (fm.contentsOfDirectory(atPath: committed.path).filter { $0.hasSuffix(".svg") }.sorted()) == names, "docs/screenshots holds exactly the pictures the readme tapes draw; run scripts/screenshots.sh")
        for name in names {
            let now = try Data(contentsOf: drawn.appendingPathComponent(name))
            let was = try? Data(contentsOf: committed.appendingPathComponent(name))
            #expect(now == was, "docs/screenshots/\(name) is not what its tape draws now; run scripts/screenshots.sh")
        }
    }
}
