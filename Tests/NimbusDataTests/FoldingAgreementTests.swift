import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// The search index is folded by `fold_tokens` in `scripts/build-resources.py` and queries by
/// `NameFolding`: on random kana (hiragana, katakana, half-width, enclosed and squared forms, marks,
/// ・ and ー, mixed with Latin, kanji and Hangul) both must give the same tokens, or a query typed
/// one way would miss names indexed the other.
@Suite struct FoldingAgreementTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Scalars the strings are made of: every kana block in full, and a few neighbours.
    private static let pool: [Unicode.Scalar] = {
        let ranges: [ClosedRange<UInt32>] = [
            0x3040...0x30FF,  // hiragana, katakana, voicing marks, ・, ー, ヽ, ゟ, ヿ
            0x31F0...0x31FF,  // katakana phonetic extensions (ㇰ)
            0x32D0...0x32FE,  // circled katakana (㋐)
            0x3300...0x3357,  // squared katakana words (㌀ アパート)
            0xFF61...0xFF9F,  // half-width katakana and marks
            0x1B000...0x1B001, // kana supplement
        ]
        var scalars = ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        scalars += "Aaé 東京大阪서울ᄀ-・　".unicodeScalars
        return scalars
    }()

    private static let batches = Gen.int(in: 0...(pool.count - 1)).array(of: 1...10).array(of: 60)

    @Test func swiftAndPythonFoldKanaAlike() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 4), input: Self.batches) { batch in
            let texts = batch.map { indices in String(String.UnicodeScalarView(indices.map { Self.pool[$0] })) }
            let python: [[String]]
            do {
                python = try Self.pythonTokens(texts)
            } catch {
                Issue.record("python fold_tokens: \(error)")
                return
            }
            #expect(python.count == texts.count)
            for (text, expected) in zip(texts, python) {
                #expect(NameFolding.tokens(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    @Test func katakanaFoldsToHiraganaInTheIndexToo() throws {
        #expect(try Self.pythonTokens(["トウキョウ ｵｵｻｶ", "ヴェネツィア"]) == [["とうきょう", "おおさか"], ["ゔぇねつぃあ"]])
    }

    struct PythonFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// `fold_tokens` of each text, from one run of python3 over the build script.
    static func pythonTokens(_ texts: [String]) throws -> [[String]] {
        let script = """
            import importlib.util, json, sys
            spec = importlib.util.spec_from_file_location("build", sys.argv[1])
            build = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(build)
            texts = json.load(sys.stdin)
            json.dump([build.fold_tokens(t) for t in texts], sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, root.appendingPathComponent("scripts/build-resources.py").path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(texts))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailed(description: String(decoding: stderr, as: UTF8.self))
        }
        return try JSONDecoder().decode([[String]].self, from: data)
    }
}
