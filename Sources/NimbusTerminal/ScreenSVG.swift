/// A screen as an SVG picture: the terminal's colours (the xterm 256-colour palette), a monospace
/// font, every character placed at its own cell so a font's widths never shift a column, and wide
/// glyphs (Hangul, kana, CJK) over two cells.
///
/// The output is a pure function of the cells, the cursor and the background, so a committed
/// picture can be compared byte for byte with what its tape draws now.
public enum ScreenSVG {
    /// The background the app's theme was made for: a dark theme on a dark terminal, the light
    /// theme on a white one.
    public enum Background: Sendable {
        case dark, light

        var colors: (fg: RGB, bg: RGB) {
            switch self {
            case .dark: return (RGB(0xd0, 0xd0, 0xd0), RGB(0x12, 0x12, 0x12))
            case .light: return (RGB(0x1c, 0x1c, 0x1c), RGB(0xff, 0xff, 0xff))
            }
        }
    }

    /// One cell: 9 × 19 pixels, the text 15 px (a monospace font's advance is 0.6 em).
    static let cellWidth = 9, cellHeight = 19, fontSize = 15, padding = 10
    /// From a row's top to the baseline.
    static let baseline = 15

    public static func render(_ buffer: ScreenBuffer, cursor: Point?, background: Background) -> String {
        let cols = buffer.size.cols, rows = buffer.size.rows
        let width = cols * cellWidth + 2 * padding, height = rows * cellHeight + 2 * padding
        let colors = background.colors
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
        <style>text{font-family:"DejaVu Sans Mono","Cascadia Mono",Menlo,Consolas,"Noto Sans Mono CJK KR","Noto Sans Mono CJK JP",monospace;\
        font-size:\(fontSize)px}.b{font-weight:bold}.d{opacity:.6}</style>
        <rect width="100%" height="100%" rx="6" fill="\(colors.bg)"/>

        """
        for y in 0..<rows {
            let top = padding + y * cellHeight
            // Backgrounds: one rectangle per run of cells with the same colour that is not the terminal's own.
            var x = 0
            while x < cols {
                let bg = resolved(buffer[x, y].style, background).bg
                var end = x + 1
                while end < cols, resolved(buffer[end, y].style, background).bg == bg { end += 1 }
                if bg != colors.bg {
                    out += "<rect x=\"\(padding + x * cellWidth)\" y=\"\(top)\" width=\"\((end - x) * cellWidth)\" height=\"\(cellHeight)\" fill=\"\(bg)\"/>\n"
                }
                x = end
            }
            if cursor?.y == y, let c = cursor, c.x >= 0, c.x < cols {
                out += "<rect x=\"\(padding + c.x * cellWidth)\" y=\"\(top)\" width=\"\(cellWidth)\" height=\"\(cellHeight)\" fill=\"\(colors.fg)\" opacity=\".5\"/>\n"
            }
            // Underlines: a line under each run of underlined cells of one colour (spaces too).
            x = 0
            while x < cols {
                let look = resolved(buffer[x, y].style, background)
                var end = x + 1
                while end < cols, resolved(buffer[end, y].style, background).fg == look.fg,
                      resolved(buffer[end, y].style, background).underline == look.underline { end += 1 }
                if look.underline {
                    out += "<rect x=\"\(padding + x * cellWidth)\" y=\"\(top + baseline + 2)\" width=\"\((end - x) * cellWidth)\" height=\"1\" fill=\"\(look.fg)\"/>\n"
                }
                x = end
            }
            // Text: one element per run of characters in one style, each character at its cell (no
            // spaces: a renderer may collapse them, and the x list would shift).
            var run: (look: Look, xs: [Int], text: String)?
            func flush() {
                guard let r = run else { return }
                let xs = r.xs.map { String(padding + $0 * cellWidth) }.joined(separator: " ")
                out += "<text x=\"\(xs)\" y=\"\(top + baseline)\" fill=\"\(r.look.fg)\"\(r.look.classes)>\(escaped(r.text))</text>\n"
                run = nil
            }
            for x in 0..<cols {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                let look = resolved(cell.style, background)
                if cell.text == " " {
                    flush()
                    continue
                }
                if run?.look != look { flush() }
                if run == nil { run = (look, [], "") }
                run!.xs.append(x)
                run!.text += cell.text
            }
            flush()
        }
        return out + "</svg>\n"
    }

    /// How a cell looks: its colours resolved against the background (reverse swaps them) and its
    /// attributes as classes.
    struct Look: Equatable {
        var fg: RGB
        var bg: RGB
        var bold: Bool
        var dim: Bool
        var underline: Bool

        var classes: String {
            let names = [bold ? "b" : nil, dim ? "d" : nil].compactMap { $0 }
            return names.isEmpty ? "" : " class=\"\(names.joined(separator: " "))\""
        }
    }

    static func resolved(_ style: Style, _ background: Background) -> Look {
        let colors = background.colors
        var fg = rgb(style.fg) ?? colors.fg
        var bg = rgb(style.bg) ?? colors.bg
        if style.reverse { swap(&fg, &bg) }
        return Look(fg: fg, bg: bg, bold: style.bold, dim: style.dim, underline: style.underline)
    }

    /// A colour as xterm shows it; nil for the terminal's default.
    static func rgb(_ color: Color) -> RGB? {
        switch color {
        case .default: return nil
        case .black: return palette(0)
        case .red: return palette(1)
        case .green: return palette(2)
        case .yellow: return palette(3)
        case .blue: return palette(4)
        case .magenta: return palette(5)
        case .cyan: return palette(6)
        case .white: return palette(7)
        case .index(let n): return palette(Int(n))
        }
    }

    /// xterm's 256 colours: 16 system colours, a 6×6×6 cube, 24 greys.
    static func palette(_ n: Int) -> RGB {
        let system: [(UInt8, UInt8, UInt8)] = [
            (0x00, 0x00, 0x00), (0xcd, 0x00, 0x00), (0x00, 0xcd, 0x00), (0xcd, 0xcd, 0x00),
            (0x00, 0x00, 0xee), (0xcd, 0x00, 0xcd), (0x00, 0xcd, 0xcd), (0xe5, 0xe5, 0xe5),
            (0x7f, 0x7f, 0x7f), (0xff, 0x00, 0x00), (0x00, 0xff, 0x00), (0xff, 0xff, 0x00),
            (0x5c, 0x5c, 0xff), (0xff, 0x00, 0xff), (0x00, 0xff, 0xff), (0xff, 0xff, 0xff),
        ]
        switch n {
        case 0..<16: return RGB(system[n].0, system[n].1, system[n].2)
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let v = n - 16
            return RGB(levels[v / 36], levels[v / 6 % 6], levels[v % 6])
        default:
            let g = UInt8(8 + 10 * (min(n, 255) - 232))
            return RGB(g, g, g)
        }
    }

    /// Text for an SVG element: XML's five special characters escaped; controls (never on a
    /// screen, as `ScreenBuffer` drops them) dropped all the same.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    struct RGB: Equatable, CustomStringConvertible {
        let r: UInt8, g: UInt8, b: UInt8
        init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }
        var description: String {
            "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
