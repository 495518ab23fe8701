import Foundation
@testable import NimbusApp
import NimbusTerminal

/// Tapes: any text either parses or fails with one line's reason (never a crash), and what the
/// recorder writes reads back: `Type` with its own quoting gives the same text, and a `Press` of a
/// key's name gives that key.
func fuzzTape(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    if let tape = try? Tape(name: "fuzz.tape", source: text) {
        require(tape.lines.count <= text.utf8.count, "more lines than bytes")
    }
    let typed = text.unicodeScalars.prefix(200).reduce(into: "") { $0.unicodeScalars.append($1) }
    guard !typed.isEmpty else { return }
    let line = "Type " + TapeRecording.quoted(typed)
    do {
        let tape = try Tape(name: "fuzz.tape", source: line)
        require(tape.lines.map(\.command) == [.type(typed)],
                "\(line.debugDescription) reads as \(tape.lines.map(\.command)), not \(typed.debugDescription)")
    } catch {
        require(false, "the recorder's line \(line.debugDescription) does not parse: \(error)")
    }
}
