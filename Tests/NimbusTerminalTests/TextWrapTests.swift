import Foundation
import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// Wrapping text to a width: English at spaces, Japanese between characters by its line-breaking
/// rules, with nothing lost and no line wider than asked.
@Suite struct TextWrapTests {
    @Test func englishBreaksAtSpaces() {
        #expect(TextWrap.lines("No places yet. Press f on a city.", width: 16) == ["No places yet.", "Press f on a", "city."])
        #expect(TextWrap.lines("supercalifragilistic", width: 8) == ["supercal", "ifragili", "stic"])
        #expect(TextWrap.lines("", width: 8) == [""])
        #expect(TextWrap.lines("anything", width: 0) == [])
    }

    /// Japanese has no spaces to break at: it breaks between characters, but not inside `--location`
    /// or `LAT,LON`, and not before `。` or `）`.
    @Test func japaneseKeepsLatinRunsWholeAndClosingMarksOnTheirLine() {
        let text = "位置が不明です。設定（,）でホームを決めるか、--location 緯度,経度 で起動するか NIMBUS_LOCATION を設定してください（例：37.57,126.98）。"
        for width in 20...60 {
            let lines = TextWrap.lines(text, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "width \(width): \(lines)")
            for run in ["--location", "NIMBUS_LOCATION", "37.57,126.98"] {
                #expect(lines.contains { $0.contains(run) }, "width \(width): \(run) is cut in \(lines)")
            }
            #expect(!lines.dropFirst().contains { $0.first.map(TextWrap.noLineStart.contains) == true }, "width \(width): \(lines)")
            #expect(!lines.contains { $0.last.map(TextWrap.noLineEnd.contains) == true }, "width \(width): \(lines)")
        }
        #expect(TextWrap.lines("東京です。大阪です。", width: 10) == ["東京です。", "大阪です。"])
        // 「 stays with 大, 」 with 阪.
        #expect(TextWrap.lines("東京「大阪」です", width: 6) == ["東京", "「大", "阪」で", "す"])
    }

    @Test func koreanBreaksAtSpacesLikeEnglish() {
        #expect(TextWrap.lines("아직 장소가 없습니다. 도시에서 f를 누르세요.", width: 20) == ["아직 장소가", "없습니다. 도시에서", "f를 누르세요."])
    }

    /// Text made of Japanese characters, Latin words, opening and closing marks and spaces, in any
    /// order: every line fits; joined, the lines are the text without its spaces; a Latin word
    /// narrower than the line is never cut; no line after the first starts with a closing mark and
    /// none ends with an opening one.
    @Test func wrappingKeepsEveryCharacterAndTheRules() async {
        let kanji = Array("東京大阪位置設定都市起動してください")
        let closers = Array("。、）」ー・ゃっ")
        let openers = Array("（「『")
        await propertyCheck(count: PropertyCount.scaled(default: 300),
                            input: Gen.int(in: 0...Int.max).array(of: 1...40), Gen.int(in: 16...60)) { seeds, width in
            var text = ""
            var latinWords: [String] = []
            for seed in seeds {
                if seed % 5 == 0 { text += "\(openers[seed / 5 % openers.count])" }
                if seed % 3 == 0 {
                    let word = String((0..<(1 + seed / 7 % 8)).map { i in Character(Unicode.Scalar(UInt8(97 + (seed / 11 + i * 7) % 26))) })
                    latinWords.append(word)
                    text += word
                } else {
                    text.append(kanji[seed / 3 % kanji.count])
                }
                for i in 0..<(seed / 13 % 3) { text.append(closers[(seed / 17 + i) % closers.count]) }
                // Latin words are written apart (two together are one longer word).
                if seed % 4 == 0 || seed % 3 == 0 { text += " " }
            }
            let lines = TextWrap.lines(text, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " })
            for word in latinWords {
                #expect(lines.contains { $0.contains(word) }, "\(word) is cut: \(lines)")
            }
            #expect(!lines.dropFirst().contains { $0.first.map(TextWrap.noLineStart.contains) == true }, "\(lines)")
            #expect(!lines.contains { $0.last.map(TextWrap.noLineEnd.contains) == true }, "\(lines)")
        }
    }
}
