import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import NimbusTerminal

/// What tapes write for people and players: asciicast recordings with xterm-256color's sequences,
/// and SVG pictures of screens.
final class TapeOutputTests: XCTestCase {
    // MARK: xterm-256color, against terminfo

    /// `tput -T xterm-256color CAP ARGS...`: the terminfo database's own bytes, read by ncurses'
    /// tool, not by this code.
    private func tput(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tput")
        process.arguments = ["-T", "xterm-256color"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    func testTheRecordingsSequencesAreTerminfosXterm256Color() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/tput"), "ncurses' tput is not installed")
        let s = FrameEncoder.Sequences.xterm256Color
        XCTAssertEqual(s.reset, try tput(["sgr0"]))
        // `-x`: the capability alone, without the E3 (clear the scrollback) `tput clear` adds.
        XCTAssertEqual(s.clear, try tput(["-x", "clear"]))
        XCTAssertEqual(s.showCursor, try tput(["cnorm"]))
        XCTAssertEqual(s.hideCursor, try tput(["civis"]))
        for (x, y) in [(0, 0), (79, 23), (5, 130), (250, 7)] {
            XCTAssertEqual(s.moveTo(x, y), try tput(["cup", "\(y)", "\(x)"]), "cup \(x),\(y)")
        }
        let reset = try tput(["sgr0"])
        XCTAssertEqual(s.style(Style(bold: true, dim: true, reverse: true, underline: true)),
                       reset + (try tput(["bold"])) + (try tput(["dim"])) + (try tput(["rev"])) + (try tput(["smul"])))
        // Every palette entry, foreground and background: all 256 agree.
        var agree = 0
        for n in 0...255 {
            let fg = s.style(Style(fg: .index(UInt8(n)))), bg = s.style(Style(bg: .index(UInt8(n))))
            let setaf = try tput(["setaf", "\(n)"]), setab = try tput(["setab", "\(n)"])
            if fg == reset + setaf && bg == reset + setab { agree += 1 }
        }
        XCTAssertEqual(agree, 256)
        XCTAssertEqual(s.style(Style(fg: .red, bg: .white)), reset + (try tput(["setaf", "1"])) + (try tput(["setab", "7"])))
    }

    func testTheEncodingTerminalWritesWhatTheFrameEncoderMakes() {
        var written: [[UInt8]] = []
        let screen = FakeTerminal(size: Size(cols: 10, rows: 2))
        let terminal = EncodingTerminal(screen) { written.append($0) }
        let renderer = Renderer(backend: terminal)
        var frame = ScreenBuffer(size: Size(cols: 10, rows: 2))
        frame.put("서울 ok", x: 0, y: 0, style: Style(bold: true))
        renderer.render(frame)
        var encoder = FrameEncoder(sequences: .xterm256Color)
        encoder.clear()
        encoder.draw((0..<20).compactMap { i in
            let cell = frame[i % 10, i / 10]
            return cell.width > 0 ? CellChange(x: i % 10, y: i / 10, cell: cell) : nil
        }, size: frame.size)
        XCTAssertEqual(written, [encoder.finish(cursor: nil, size: frame.size)])
        XCTAssertEqual(screen.screenText(), "서울 ok\n", "the fake terminal shows the frame too")
        renderer.render(frame)
        XCTAssertEqual(written.count, 1, "an unchanged frame writes nothing")
    }

    // MARK: asciicast

    func testEveryEventLineIsJSONThatReadsBackToItsBytes() throws {
        var cast = Asciicast(size: Size(cols: 80, rows: 24), title: "a \"tape\"\n")
        let nasty = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "서울 ☂ \u{1F600} \\ \" \u{85}"
        cast.output(Array(nasty.utf8), at: 0)
        cast.resize(to: Size(cols: 100, rows: 30), at: 1.25)
        cast.marker("Snapshot s", at: 61.000_000_4)
        let lines = cast.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4)
        let header = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(header["title"] as? String, "a \"tape\"\n")
        XCTAssertEqual((header["env"] as? [String: String])?["TERM"], "xterm-256color")
        let output = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [Any])
        XCTAssertEqual(output[2] as? String, nasty)
        XCTAssertEqual(lines[2], "[1.250000, \"r\", \"100x30\"]")
        XCTAssertEqual(lines[3], "[61.000000, \"m\", \"Snapshot s\"]")
    }

    // MARK: SVG

    func testThePaletteIsXterms() {
        // Spot values of xterm's 256-colour palette (its 256colres.h): system colours, the cube's
        // corners and steps, and the greys.
        let expected: [Int: String] = [0: "#000000", 1: "#cd0000", 7: "#e5e5e5", 8: "#7f7f7f", 12: "#5c5cff", 15: "#ffffff",
                                       16: "#000000", 21: "#0000ff", 24: "#005f87", 75: "#5fafff", 196: "#ff0000",
                                       231: "#ffffff", 232: "#080808", 236: "#303030", 244: "#808080", 250: "#bcbcbc", 255: "#eeeeee"]
        for (n, hex) in expected { XCTAssertEqual("\(ScreenSVG.palette(n))", hex, "colour \(n)") }
    }

    func testAScreenAsSVG() {
        var buffer = ScreenBuffer(size: Size(cols: 8, rows: 2))
        buffer.put("<a&b>", x: 0, y: 0, style: Style(fg: .index(75), bold: true))
        buffer.put("서울", x: 0, y: 1, style: Style(reverse: true))
        let svg = ScreenSVG.render(buffer, cursor: Point(x: 7, y: 1), background: .dark)
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"92\" height=\"58\" viewBox=\"0 0 92 58\">"), svg)
        XCTAssertTrue(svg.contains("<text x=\"10 19 28 37 46\" y=\"25\" fill=\"#5fafff\" class=\"b\">&lt;a&amp;b&gt;</text>"), svg)
        // Reversed: the default colours swapped; each wide glyph at its first cell, two cells apart.
        XCTAssertTrue(svg.contains("<rect x=\"10\" y=\"29\" width=\"36\" height=\"19\" fill=\"#d0d0d0\"/>"), svg)
        XCTAssertTrue(svg.contains("<text x=\"10 28\" y=\"44\" fill=\"#121212\">서울</text>"), svg)
        XCTAssertTrue(svg.contains("<rect x=\"73\" y=\"29\" width=\"9\" height=\"19\" fill=\"#d0d0d0\" opacity=\".5\"/>"), "the cursor")
        XCTAssertTrue(svg.hasSuffix("</svg>\n"))
        let light = ScreenSVG.render(buffer, cursor: nil, background: .light)
        XCTAssertTrue(light.contains("rx=\"6\" fill=\"#ffffff\""), light)
        // The picture is well-formed XML.
        let parser = XMLParser(data: Data(svg.utf8))
        XCTAssertTrue(parser.parse(), "\(String(describing: parser.parserError))")
    }
}
