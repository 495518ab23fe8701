import XCTest
import NimbusDomain
@testable import NimbusData

/// The in-place editor on the documents people write: each edit changes one span and nothing else.
final class TOMLLineEditorTests: XCTestCase {
    private func edit(_ text: String, _ changes: [(String, TOMLLineEditor.Value?)]) throws -> String {
        try XCTUnwrap(TOMLLineEditor(text)).setting(changes.map { (key: $0.0, value: $0.1) })
    }

    func testAValueIsReplacedWhereItIsWithItsSpacingQuotesAndComment() throws {
        XCTAssertEqual(try edit("  \"units\"\t=  'imperial'   # office\n", [("units", .string("metric"))]),
                       "  \"units\"\t=  'metric'   # office\n")
        XCTAssertEqual(try edit("units = \"\\u0069mperial\"\n", [("units", .string("metric"))]), "units = \"metric\"\n",
                       "a key or value written with escapes is found")
        XCTAssertEqual(try edit("\"\\u0075nits\" = 'auto'\n", [("units", .string("metric"))]), "\"\\u0075nits\" = 'metric'\n")
        XCTAssertEqual(try edit("home = 'x'\n", [("home", .string("it's"))]), "home = \"it's\"\n",
                       "a value a literal string can't hold goes in double quotes")
        XCTAssertEqual(try edit("home = \"x\"\n", [("home", .string("a\"b\\c\n"))]), "home = \"a\\\"b\\\\c\\n\"\n")
    }

    func testAValueOverSeveralLinesIsReplacedWhole() throws {
        let text = "a = 1\nunits = \"\"\"\nimperial\"\"\"  # why\nb = [\n  1, # one\n  \"]\",\n]\nclock = 24\n"
        XCTAssertEqual(try edit(text, [("units", .string("metric"))]),
                       "a = 1\nunits = \"metric\"  # why\nb = [\n  1, # one\n  \"]\",\n]\nclock = 24\n")
        XCTAssertEqual(try edit(text, [("clock", nil)]), "a = 1\nunits = \"\"\"\nimperial\"\"\"  # why\nb = [\n  1, # one\n  \"]\",\n]\n")
        XCTAssertEqual(try edit(text, [("b", nil)]), "a = 1\nunits = \"\"\"\nimperial\"\"\"  # why\nclock = 24\n")
    }

    func testKeysInTablesAndDottedKeysAreNotTheAppsOwn() throws {
        let text = "# top\n\n# servers\n[servers]\nunits = 5\n"
        XCTAssertEqual(try edit(text, [("units", .string("metric"))]), "# top\n\nunits = \"metric\"\n# servers\n[servers]\nunits = 5\n",
                       "with no top-level key, a new one goes before the first table and its comments")
        XCTAssertEqual(try edit("x.units = 1\n", [("units", .string("metric"))]), "x.units = 1\nunits = \"metric\"\n")
        XCTAssertEqual(try edit("[a]\n", [("units", nil)]), "[a]\n", "removing a key that is not there changes nothing")
    }

    func testLineEndingsAByteOrderMarkAndNoFinalNewlineAreKept() throws {
        XCTAssertEqual(try edit("a = 1\r\nb = 2\r\n", [("clock", .integer(12))]), "a = 1\r\nb = 2\r\nclock = 12\r\n")
        XCTAssertEqual(try edit("a = 1", [("mouse", .boolean(false))]), "a = 1\nmouse = false\n")
        XCTAssertEqual(try edit("a = 1\nclock = 24", [("clock", nil)]), "a = 1\n")
        XCTAssertEqual(try edit("\u{FEFF}[t]\n", [("clock", .integer(24))]), "\u{FEFF}clock = 24\n[t]\n")
        XCTAssertEqual(try edit("", [("clock", .integer(24)), ("units", .string("auto"))]), "clock = 24\nunits = \"auto\"\n")
    }

    func testTextItCannotFollowIsNotEdited() {
        XCTAssertNil(TOMLLineEditor("units = \"metric\nx = 1\n"), "an unterminated string")
        XCTAssertNil(TOMLLineEditor("a = [1, 2\n"))
        XCTAssertNil(TOMLLineEditor("a = " + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "\n"),
                     "deeper than TOMLKit reads")
    }
}

/// The locked, re-reading, atomic save.
final class LockedFileUpdateTests: XCTestCase {
    private var directory: URL!
    private let fm = FileManager.default
    private var url: URL { directory.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        directory = fm.temporaryDirectory.appendingPathComponent("nimbus-update-\(UUID().uuidString)")
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    private var contents: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "(none)" }
    private func append(_ line: String) -> (Data?) -> Data {
        { Data((($0.map { String(decoding: $0, as: UTF8.self) } ?? "") + line).utf8) }
    }

    /// An editor that saves in place (truncate, then write) while the app saves: the app's new file
    /// was made from the first half; it is made again from the whole, and nothing is lost.
    func testAnEditorSavingInPlaceMeanwhileLosesNothing() throws {
        try Data("a = 1\n".utf8).write(to: url)
        var update = LockedFileUpdate(url: url, maxBytes: 1 << 16)
        let path = url.path
        let writes = Counter()
        update.beforeReplace = {
            guard writes.next() == 0 else { return }
            let fd = open(path, O_WRONLY | O_APPEND)
            _ = "b = 2\n".withCString { write(fd, $0, 6) }
            close(fd)
        }
        try update.update(append("clock = 12\n"))
        XCTAssertEqual(contents, "a = 1\nb = 2\nclock = 12\n")
        XCTAssertEqual(writes.count, 2, "made twice")
    }

    /// A file that appeared while the first one was being written is never replaced unread.
    func testAFileThatAppearedMeanwhileIsReadFirst() throws {
        var update = LockedFileUpdate(url: url, maxBytes: 1 << 16)
        let path = url.path
        let writes = Counter()
        update.beforeReplace = {
            if writes.next() == 0 { _ = FileManager.default.createFile(atPath: path, contents: Data("mine = 1\n".utf8)) }
        }
        try update.update(append("clock = 12\n"))
        XCTAssertEqual(contents, "mine = 1\nclock = 12\n")
    }

    func testAFileThatKeepsChangingIsLeftAlone() throws {
        try Data("a = 1\n".utf8).write(to: url)
        var update = LockedFileUpdate(url: url, maxBytes: 1 << 16)
        let path = url.path
        let writes = Counter()
        update.beforeReplace = { try? Data("a = \(writes.next())\n".utf8).write(to: URL(fileURLWithPath: path)) }
        XCTAssertThrowsError(try update.update(append("b = 2\n"))) { XCTAssertEqual($0 as? LockedFileUpdate.Failure, .keptChanging) }
        XCTAssertEqual(writes.count, LockedFileUpdate.attempts)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: directory.path).sorted(), [".config.toml.lock", "config.toml"],
                       "no new file left behind")
    }

    func testAHeldLockIsWaitedForThenGivenUpOn() throws {
        var update = LockedFileUpdate(url: url, maxBytes: 1 << 16)
        update.lockTimeout = 0.2
        let holder = open(update.lockURL.path, O_RDWR | O_CREAT, 0o600)
        defer { close(holder) }
        XCTAssertEqual(flock(holder, LOCK_EX), 0)
        XCTAssertThrowsError(try update.update(append("x = 1\n"))) { XCTAssertEqual($0 as? LockedFileUpdate.Failure, .locked) }
        XCTAssertFalse(fm.fileExists(atPath: url.path))
        flock(holder, LOCK_UN)
        XCTAssertNoThrow(try update.update(append("x = 1\n")))
        XCTAssertEqual(contents, "x = 1\n")
    }

    /// The reason was read from errno after the lock file's path had been made, which looks the path up
    /// and sets errno itself: a folder the app may not write in was said to have "No such file or
    /// directory" in it. (/sys refuses even root a new file there, with EACCES.)
    func testAFailureSaysTheSystemsOwnReason() throws {
        guard SafeFile.kind(atPath: "/sys/kernel") == .directory else { throw XCTSkip("no /sys here") }
        let update = LockedFileUpdate(url: URL(fileURLWithPath: "/sys/kernel/nimbus-config-\(UUID().uuidString).toml"), maxBytes: 1 << 16)
        XCTAssertThrowsError(try update.update(append("x = 1\n"))) { error in
            XCTAssertEqual(error as? LockedFileUpdate.Failure, .io("\(update.lockURL.path): Permission denied"))
        }
    }

    func testWhatTheChangeThrowsIsThrownAndNothingIsWritten() throws {
        try Data("a = 1\n".utf8).write(to: url)
        struct Refused: Error {}
        XCTAssertThrowsError(try LockedFileUpdate(url: url, maxBytes: 1 << 16).update { _ in throw Refused() }) {
            XCTAssertTrue($0 is Refused)
        }
        XCTAssertEqual(contents, "a = 1\n")
        XCTAssertThrowsError(try LockedFileUpdate(url: url, maxBytes: 8).update(append("b = 2\n"))) {
            XCTAssertEqual($0 as? LockedFileUpdate.Failure, .tooLarge)
        }
        XCTAssertEqual(contents, "a = 1\n")
    }
}

/// Links the user made are followed; what is not a plain file, or is another user's link, is not.
final class UserFileLocationTests: XCTestCase {
    private var directory: URL!
    private let fm = FileManager.default

    override func setUpWithError() throws {
        directory = fm.temporaryDirectory.appendingPathComponent("nimbus-location-\(UUID().uuidString)").resolvingSymlinksInPath()
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        directory = URL(fileURLWithPath: try XCTUnwrap(realpath(directory.path, nil).map { p in defer { free(p) }; return String(cString: p) }))
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    func testPlainMissingAndLinkedPaths() throws {
        let file = directory.appendingPathComponent("a/config.toml")
        XCTAssertEqual(UserFileLocation.resolve(file), .missing(file), "folders that are not there yet")
        try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: file)
        XCTAssertEqual(UserFileLocation.resolve(file), .file(file))

        let dotfiles = directory.appendingPathComponent("dotfiles")
        try fm.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("b/config.toml")
        try fm.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "../dotfiles/nimbus.toml")
        XCTAssertEqual(UserFileLocation.resolve(link), .missing(dotfiles.appendingPathComponent("nimbus.toml")),
                       "a link to a file not made yet leads to where it will be")
        try fm.createSymbolicLink(atPath: directory.appendingPathComponent("c").path, withDestinationPath: "b")
        try Data().write(to: dotfiles.appendingPathComponent("nimbus.toml"))
        XCTAssertEqual(UserFileLocation.resolve(directory.appendingPathComponent("c/config.toml")),
                       .file(dotfiles.appendingPathComponent("nimbus.toml")), "a linked folder holding a link")

        let loop = directory.appendingPathComponent("loop")
        try fm.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        guard case .unresolvable = UserFileLocation.resolve(loop.appendingPathComponent("config.toml")) else {
            return XCTFail("a link to itself")
        }
        let notAFolder = directory.appendingPathComponent("a/config.toml/nimbus/config.toml")
        XCTAssertEqual(UserFileLocation.resolve(notAFolder), .notAFolder(path: file.path, kind: "file"))
    }

    func testAnotherUsersLinkIsNotFollowed() throws {
        let victim = directory.appendingPathComponent("victim.toml")
        try Data().write(to: victim)
        let link = directory.appendingPathComponent("config.toml")
        try fm.createSymbolicLink(atPath: link.path, withDestinationPath: victim.path)
        XCTAssertEqual(UserFileLocation.resolve(link, owner: getuid()), .file(victim))
        guard lchown(link.path, 65534, 65534) == 0 else { throw XCTSkip("changing a link's owner needs root") }
        XCTAssertEqual(UserFileLocation.resolve(link, owner: 1000), .foreignLink(path: link.path))
        XCTAssertEqual(UserFileLocation.resolve(link, owner: 65534), .file(victim))
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// The count before this call.
    func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
    var count: Int { lock.withLock { value } }
}
