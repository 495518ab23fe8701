import CNCursesw
import NimbusTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum NCursesError: Error, Equatable {
    /// stdin or stdout is not a terminal.
    case notATerminal
    /// ncurses could not initialise the terminal (unknown TERM, …).
    case initFailed
}

/// Draws frames on the real terminal with ncursesw. Input is not read here: the app reads fd 0 and feeds `KeyParser`.
public final class NCursesBackend: TerminalBackend {
    public private(set) var size: Size
    public private(set) var supportsColor = false

    private var started = false
    private var suspended = false
    private var defaultColors = false
    private var colorCount: Int32 = 0
    private var maxPairs: Int32 = 0
    private var nextPair: Int32 = 1
    private var pairs: [PairKey: Int32] = [:]
    private var cursor: Point?
    private var cursorVisibility: Int32 = -1
    private var scalarScratch: [UInt32] = []

    private struct PairKey: Hashable {
        let fg: Int32
        let bg: Int32
    }

    /// Does not touch the terminal; call `start()`.
    public init() {
        size = NCursesBackend.initialSize()
    }

    deinit {
        stop()
    }

    /// Enters curses mode: locale (with a C.UTF-8 fallback), raw input, colours and bracketed paste.
    public func start() throws {
        guard !started else { return }
        guard isatty(0) != 0, isatty(1) != 0 else { throw NCursesError.notATerminal }
        setlocale(LC_ALL, "")
        if nimbus_codeset_is_utf8() == 0 {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "C.utf8") }
        }
        setenv("ESCDELAY", "25", 1)
        guard nimbus_newterm() == 0 else { throw NCursesError.initFailed }
        started = true
        suspended = false
        set_escdelay(25)
        nimbus_configure()
        setCursorVisibility(0)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if has_colors() && !noColor {
            start_color()
            defaultColors = use_default_colors() == OK
            colorCount = nimbus_colors()
            maxPairs = min(nimbus_color_pairs(), 32767)
            supportsColor = colorCount >= 8 && maxPairs > 1
        } else {
            supportsColor = false
        }
        pairs.removeAll()
        nextPair = 1
        readSize()
        refresh()
        // ncurses flushes its output after every cursor move until the screen has been through
        // endwin() once (its `_endwin` stays "initial"); one round trip here lets a frame go out
        // in one write instead of one per moved-to span (~16 per keystroke).
        endwin()
        refresh()
        nimbus_write_raw("\u{1B}[?2004h")
    }

    /// Leaves curses mode and disables bracketed paste. Idempotent; safe from any exit path.
    public func stop() {
        guard started else { return }
        started = false
        if !suspended {
            nimbus_write_raw("\u{1B}[?2004l")
            curs_set(1)
            endwin()
        }
        suspended = false
    }

    /// Gives the terminal back (SIGTSTP).
    public func suspend() {
        guard started, !suspended else { return }
        nimbus_write_raw("\u{1B}[?2004l")
        endwin()
        suspended = true
    }

    /// Takes the terminal again (SIGCONT); the next frame repaints everything.
    public func resume() {
        guard started, suspended else { return }
        suspended = false
        refresh()
        nimbus_write_raw("\u{1B}[?2004h")
        updateSize()
        cursorVisibility = -1
        clearAll()
    }

    /// Re-reads the terminal size after SIGWINCH.
    public func updateSize() {
        guard started else {
            size = NCursesBackend.initialSize()
            return
        }
        var rows: Int32 = 0
        var cols: Int32 = 0
        if nimbus_winsize(&rows, &cols) == 0 {
            resizeterm(rows, cols)
        } else {
            endwin()
            refresh()
        }
        readSize()
    }

    public func draw(_ changes: [CellChange]) {
        guard started, !suspended else { return }
        for change in changes where change.cell.width > 0 {
            let style = change.cell.style
            var reverse = style.reverse
            if !supportsColor && style.bg != .default { reverse = true } // keep highlights readable in monochrome
            let attrs = nimbus_attrs(style.bold ? 1 : 0, style.dim ? 1 : 0, reverse ? 1 : 0, style.underline ? 1 : 0)
            let pair = supportsColor ? pairNumber(style) : 0
            if var value = change.cell.glyph.scalar?.value {
                _ = nimbus_put(Int32(change.y), Int32(change.x), &value, 1, attrs, pair)
                continue
            }
            scalarScratch.removeAll(keepingCapacity: true)
            for s in change.cell.text.unicodeScalars { scalarScratch.append(s.value) }
            scalarScratch.withUnsafeBufferPointer { buf in
                _ = nimbus_put(Int32(change.y), Int32(change.x), buf.baseAddress, Int32(buf.count), attrs, pair)
            }
        }
    }

    public func setCursor(_ p: Point?) {
        cursor = p
    }

    public func flush() {
        guard started, !suspended else { return }
        if let p = cursor, p.x >= 0, p.y >= 0, p.x < size.cols, p.y < size.rows {
            nimbus_move(Int32(p.y), Int32(p.x))
            setCursorVisibility(1)
        } else {
            setCursorVisibility(0)
        }
        nimbus_update()
    }

    public func clearAll() {
        guard started, !suspended else { return }
        nimbus_clear_all()
    }

    // MARK: - Internals

    private func setCursorVisibility(_ v: Int32) {
        guard v != cursorVisibility else { return }
        curs_set(v)
        cursorVisibility = v
    }

    private func readSize() {
        let rows = Int(nimbus_rows())
        let cols = Int(nimbus_cols())
        if rows > 0 && cols > 0 { size = Size(cols: cols, rows: rows) }
    }

    private static func initialSize() -> Size {
        if let c = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }),
           let r = getenv("LINES").flatMap({ Int(String(cString: $0)) }), c > 0, r > 0 {
            return Size(cols: c, rows: r)
        }
        var rows: Int32 = 0
        var cols: Int32 = 0
        if nimbus_winsize(&rows, &cols) == 0 { return Size(cols: Int(cols), rows: Int(rows)) }
        return Size(cols: 80, rows: 24)
    }

    private func pairNumber(_ style: Style) -> Int32 {
        let key = PairKey(fg: colorNumber(style.fg, background: false), bg: colorNumber(style.bg, background: true))
        if key.fg == -1 && key.bg == -1 { return 0 }
        if let p = pairs[key] { return p }
        guard nextPair < maxPairs else { return 0 }
        let p = nextPair
        guard nimbus_init_pair(p, key.fg, key.bg) == OK else { return 0 }
        nextPair += 1
        pairs[key] = p
        return p
    }

    private func colorNumber(_ c: Color, background: Bool) -> Int32 {
        switch c {
        case .default: return defaultColors ? -1 : (background ? 0 : 7)
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .index(let n):
            if Int32(n) < colorCount { return Int32(n) }
            return NCursesBackend.basicColor(n)
        }
    }

    /// Nearest of the 8 basic colours for a 256-colour index.
    static func basicColor(_ n: UInt8) -> Int32 {
        switch n {
        case 0..<16: return Int32(n % 8)
        case 16...231:
            let v = Int32(n) - 16
            let r = v / 36, g = (v / 6) % 6, b = v % 6
            return (r > 2 ? 1 : 0) | (g > 2 ? 2 : 0) | (b > 2 ? 4 : 0)
        default:
            return n < 244 ? 0 : 7
        }
    }
}
