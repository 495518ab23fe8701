import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// The keys and the wheel over a scrolled text.
@Suite struct TextScrollTests {
    @Test func keysMoveALineAPageOrToAnEnd() {
        let scroll = TextScroll(line: 10, page: 9, last: 40)
        #expect(scroll.after(.down) == 11)
        #expect(scroll.after(.up) == 9)
        #expect(scroll.after(.pageDown) == 19)
        #expect(scroll.after(.pageUp) == 1)
        #expect(scroll.after(.home) == 0)
        #expect(scroll.after(.end) == 40)
        #expect(scroll.after(.char("j")) == 11)
        #expect(scroll.after(.char(" ")) == 19)
        #expect(scroll.after(.char("G")) == 40)
        #expect(scroll.after(.char("x")) == nil)
        #expect(scroll.after(.enter) == nil)
        #expect(scroll.afterWheel(2) == 16)
        #expect(scroll.afterWheel(-5) == 0)
    }

    /// Where letters are text (the help's filter), they do not scroll.
    @Test func lettersScrollOnlyWhenAsked() {
        let scroll = TextScroll(line: 3, page: 5, last: 20)
        for letter in ["j", "k", "g", "G", " "] {
            #expect(scroll.after(.char(Character(letter)), letters: false) == nil)
            #expect(scroll.after(.char(Character(letter))) != nil)
        }
    }

    /// From any line (even one past the end, after the text got shorter), any key or notches land
    /// within the text.
    @Test func neverPastEitherEnd() async {
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .char("j"), .char("k"), .char(" "), .char("g"), .char("G")]
        await propertyCheck(count: PropertyCount.scaled(default: 300),
                            input: Gen.int(in: -5...200), Gen.int(in: -3...60), Gen.int(in: -5...150), Gen.int(in: -20...20)) {
            line, page, last, notches in
            let scroll = TextScroll(line: line, page: page, last: last)
            for key in keys {
                let to = try #require(scroll.after(key))
                #expect((0...max(0, last)).contains(to))
            }
            #expect((0...max(0, last)).contains(scroll.afterWheel(notches)))
        }
    }
}

