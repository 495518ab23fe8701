import XCTest
@testable import NimbusData

/// The small XML reader the warning feeds are read with: what it accepts, and what it refuses.
final class XMLReaderTests: XCTestCase {
    func testElementsAttributesTextAndReferences() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment -->
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
          <entry>
            <cap:areaDesc>Tayside &amp; Fife &#x2014; &#8212; &lt;b&gt; &quot;q&quot; &apos;a&apos;</cap:areaDesc>
            <cap:geocode><valueName>EMMA_ID</valueName><value>DE202</value></cap:geocode>
            <link href="https://x/y?a=1&amp;b=2" type='application/cap+xml'/>
            <summary><![CDATA[<not> & markup]]> and more</summary>
          </entry>
        </feed>
        """
        let root = try XMLReader.parse(Data(xml.utf8))
        XCTAssertEqual(root.name, "feed")
        let entry = try XCTUnwrap(root.child("entry"))
        XCTAssertEqual(entry.text(of: "areaDesc"), "Tayside & Fife — — <b> \"q\" 'a'")
        XCTAssertEqual(entry.child("geocode")?.text(of: "valueName"), "EMMA_ID")
        XCTAssertEqual(entry.child("link")?.attributes["href"], "https://x/y?a=1&b=2")
        XCTAssertEqual(entry.child("link")?.attributes["type"], "application/cap+xml")
        XCTAssertEqual(entry.text(of: "summary"), "<not> & markup and more")
    }

    func testWhatItRefuses() {
        let refused = [
            "", "   ", "text", "<a>", "<a></b>", "<a><b></a></b>", "<a/><b/>", "<a x=1/>", "<a x=\"<\"/>",
            "<a>&unknown;</a>", "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&amp</a>", "<!-- open",
            "<!DOCTYPE a [<!ENTITY b \"bbbbbbbb\"><!ENTITY c \"&b;&b;&b;&b;\">]><a>&c;</a>",
            "<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>", "<a><![CDATA[x</a>",
        ]
        for text in refused {
            XCTAssertThrowsError(try XMLReader.parse(Data(text.utf8)), text)
        }
    }

    func testLimitsHold() {
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        XCTAssertThrowsError(try XMLReader.parse(Data(deep.utf8)))
        let wide = "<a>" + String(repeating: "<b/>", count: 300) + "</a>"
        XCTAssertThrowsError(try XMLReader.parse(Data(wide.utf8), limits: .init(depth: 64, elements: 100, text: 1 << 20)))
        let long = "<a>" + String(repeating: "x", count: 2_000) + "</a>"
        XCTAssertThrowsError(try XMLReader.parse(Data(long.utf8), limits: .init(depth: 64, elements: 100, text: 1_000)))
        XCTAssertNoThrow(try XMLReader.parse(Data(long.utf8)))
    }

    func testInvalidUTF8BecomesReplacementCharacters() throws {
        var data = Data("<a>x".utf8)
        data.append(contentsOf: [0xC3, 0x28, 0xFF])
        data.append(Data("y</a>".utf8))
        let text = try XMLReader.parse(data).text
        XCTAssertTrue(text.hasPrefix("x") && text.hasSuffix("y"))
        XCTAssertTrue(text.unicodeScalars.contains("\u{FFFD}"))
    }

    func testISO8601InstantsAsServicesWriteThem() {
        XCTAssertEqual(ISO8601.parse("2026-01-15T10:00:00-08:00"), Date(timeIntervalSince1970: 1_768_500_000))
        XCTAssertEqual(ISO8601.parse("2026-01-15T18:00:00Z"), Date(timeIntervalSince1970: 1_768_500_000))
        XCTAssertEqual(ISO8601.parse("2026-01-16T03:00:00+0900"), Date(timeIntervalSince1970: 1_768_500_000))
        XCTAssertEqual(ISO8601.parse("2026-01-15T18:00:00.250Z"), Date(timeIntervalSince1970: 1_768_500_000.25))
        XCTAssertEqual(ISO8601.parse("2024-02-29T00:00Z"), Date(timeIntervalSince1970: 1_709_164_800))
        for bad in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-15", "2026-01-15T25:00:00Z", "2026-01-15T10:00:00",
                    "2026-01-15T10:00:00+99:00", "20260115T100000Z", "", "tomorrow", "2026-01-15T10:00:00Zjunk"] {
            XCTAssertNil(ISO8601.parse(bad), bad)
        }
        // Against Foundation's reading, over a spread of instants.
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: 946_684_800, to: 7_258_118_400, by: 86_400 * 97 + 3_661) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            XCTAssertEqual(ISO8601.parse(formatter.string(from: date)), date)
        }
    }

    func testMultilineTextKeepsParagraphsAndDropsControls() {
        XCTAssertEqual(WarningText.multiline("a\r\nb\rc\n\n\n\nd\t e\u{1B}[31m\u{202E}\n  \n"), "a\nb\nc\n\nd  e[31m")
        XCTAssertNil(WarningText.multiline("\u{1B}\n\u{7}\n"))
        XCTAssertEqual(WarningText.multiline(String(repeating: "é", count: 30_000))?.count, WarningText.body)
        XCTAssertEqual(WarningText.language("en-GB"), "en-GB")
        XCTAssertEqual(WarningText.language("de_DE"), "de-DE")
        XCTAssertNil(WarningText.language("en\u{1B}[2J"))
        XCTAssertNil(WarningText.language(String(repeating: "a", count: 40)))
    }
}
