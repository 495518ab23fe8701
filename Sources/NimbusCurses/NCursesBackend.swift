import CNCursesw
import NimbusTerminal
import Glibc

public enum NCursesError: Error, Equatable, CustomStringConvertible {
    /// stdin or stdout is not a terminal.
    case notATerminal
    /// TERM is unset or empty.
    case noTerm
    /// TERM names no terminal in the terminfo database.
    case unknownTerminal(term: String)
    /// No terminfo database could be found at all.
    case noTerminfo(term: String)
    /// `COLUMNS` or `LINES` is not a usable size, and the terminal does not report its own.
    case badSizeVariable(name: String, value: String)
    /// ncurses could not initialise the terminal for another reason.
    case initFailed(term: String)
    /// The terminal cannot put the cursor at a position (no `cup` in its terminfo entry, e.g. TERM=dumb).
    case cannotAddressCursor(term: String)

    public var description: String {
        switch self {
        case .notATerminal: return "nimbus needs a terminal on stdin and stdout"
        case .noTerm: return "TERM is not set; set it to your terminal's type, such as xterm-256color"
        case .unknownTerminal(let term):
            return "TERM=\(Self.printable(term)) is not a terminal the terminfo database knows; try TERM=xterm-256color"
        case .noTerminfo(let term):
            return "no terminfo database was found to look up TERM=\(Self.printable(term)) (install ncurses-base)"
        case .badSizeVariable(let name, let value):
            return "\(name)=\(Self.printable(value)) is not a usable terminal size (1 to \(NCursesBackend.maxDimension)), and the terminal does not report its own; unset \(name)"
        case .initFailed(let term):
            return "the terminal (TERM=\(Self.printable(term))) could not be set up"
        case .cannotAddressCursor(let term):
            return "the terminal (TERM=\(Self.printable(term))) cannot move the cursor; nimbus needs a full-screen terminal such as xterm-256color"
        }
    }

    /// Environment text as it may be shown: control characters escaped, at most 40 characters.
    static func printable(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(40).map { scalar -> String in
            scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
                ? "\\x" + String(scalar.value, radix: 16) : String(scalar)
        }.joined()
        return text.unicodeScalars.count > 40 ? shown + "…" : shown
    }
}

/// The real terminal. ncursesw sets it up (raw input, the alternate screen, the terminfo entry)
/// and restores it; frames are written as the cells `Renderer` found changed, with the terminal's
/// own terminfo sequences (`FrameEncoder`), in one write each: ncurses' own refresh would diff
/// every frame a second time. Input is not read here: the app reads fd 0 and feeds `KeyParser`.
public final class NCursesBackend: TerminalBackend {
    public private(set) var size: Size
    public private(set) var supportsColor = false

    private var started = false
    private var suspended = false
    private var colorCount: Int32 = 0
    private var encoder: FrameEncoder?
    private var cursor: Point?
    /// Whether the terminal is asked for mouse reports (button presses, drags and the wheel, SGR 1006).
    public private(set) var mouse: Bool

    /// Mouse reporting on: clicks, drags with a button held, the wheel; SGR 1006 so columns beyond 223 work.
    public static let mouseOn = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
    /// Mouse reporting off again, in the reverse order.
    public static let mouseOff = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

    /// Does not touch the terminal; call `start()`.
    public init(mouse: Bool = true) {
        self.mouse = mouse
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
        let environment = Self.sizeVariables()
        if Self.terminalSize() != nil {
            // The terminal knows its size: COLUMNS and LINES that say otherwise (stale, or hostile
            // like COLUMNS=99999) must not make curses draw for a screen that isn't there. They go
            // from the environment, so curses asks the terminal (`use_env(false)` would make it take
            // the terminfo entry's 80×24 instead of the window's size).
            unsetenv("COLUMNS")
            unsetenv("LINES")
        } else if let problem = Self.sizeVariableProblem(columns: environment.columns, lines: environment.lines) {
            throw problem
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard nimbus_newterm() == 0 else { throw Self.whyInitFailed(term: term) }
        guard nimbus_tigetstr("cup") != nil else {
            endwin()
            throw NCursesError.cannotAddressCursor(term: term)
        }
        started = true
        suspended = false
        set_escdelay(25)
        nimbus_configure()
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        colorCount = has_colors() && !noColor ? nimbus_colors() : 0
        supportsColor = colorCount >= 8 && nimbus_tigetstr("setaf") != nil && nimbus_tigetstr("setab") != nil
        encoder = FrameEncoder(sequences: makeSequences())
        readSize()
        refresh() // curses enters the alternate screen
        nimbus_write_raw("\u{1B}[?2004h")
        if mouse { nimbus_write_raw(Self.mouseOn) }
    }

    /// Turns mouse reporting on or off while the app runs (the settings' Mouse row); every way out
    /// (quit, Ctrl-Z, a crash) turns it off if it is on.
    public func setMouseReporting(_ on: Bool) {
        guard on != mouse else { return }
        mouse = on
        guard started, !suspended else { return }
        nimbus_write_raw(on ? Self.mouseOn : Self.mouseOff)
    }

    /// Asks the terminal for its background colour (OSC 11); the answer comes on stdin, where the
    /// key parser takes it (`KeyParser.terminalAnswers`) and never lets it through as typed text.
    public func requestBackgroundColor() {
        guard started else { return }
        Self.write(TerminalBackground.query)
    }

    /// Leaves curses mode and disables bracketed paste. Idempotent; safe from any exit path.
    public func stop() {
        guard started else { return }
        started = false
        if !suspended {
            if mouse { nimbus_write_raw(Self.mouseOff) }
            nimbus_write_raw("\u{1B}[?2004l")
            Self.write(Self.capability("sgr0") + Self.capability("cnorm"))
            endwin()
        }
        suspended = false
    }

    /// Gives the terminal back (SIGTSTP).
    public func suspend() {
        guard started, !suspended else { return }
        if mouse { nimbus_write_raw(Self.mouseOff) }
        nimbus_write_raw("\u{1B}[?2004l")
        Self.write(Self.capability("sgr0") + Self.capability("cnorm"))
        endwin()
        suspended = true
    }

    /// Takes the terminal again (SIGCONT); the caller repaints everything (`Renderer.invalidate`).
    public func resume() {
        guard started, suspended else { return }
        suspended = false
        refresh()
        nimbus_write_raw("\u{1B}[?2004h")
        if mouse { nimbus_write_raw(Self.mouseOn) }
        updateSize()
        encoder?.forget()
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
        encoder?.draw(changes, size: size)
    }

    public func draw(_ changes: [CellChange], of frame: ScreenBuffer) {
        guard started, !suspended else { return }
        encoder?.draw(changes, size: size, frame: frame.size == size ? frame : nil)
    }

    /// What drawing costs with this terminal's sequences; nil while it is not ours or when its
    /// terminfo entry has no way to move lines.
    public var drawingCosts: (any DrawingCosts)? {
        started && !suspended ? encoder?.costs : nil
    }

    public func moveLines(_ moves: [LineMove]) {
        guard started, !suspended else { return }
        encoder?.moveLines(moves, size: size)
    }

    public func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer) -> Int? {
        guard started, !suspended, frame.size == size else { return nil }
        return encoder?.bytes(moving: moves, thenDrawing: changes, of: frame, size: size)
    }

    public func setCursor(_ p: Point?) {
        cursor = p
    }

    public func flush() {
        guard started, !suspended, encoder != nil else { return }
        encoder!.finish(cursor: cursor, size: size) { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { nimbus_write($0, bytes.count) }
        }
    }

    public func clearAll() {
        guard started, !suspended else { return }
        encoder?.clear()
    }

    /// Puts `text` on the clipboard of the terminal (and, over SSH or in tmux with `set-clipboard on`,
    /// of the machine the user sits at) with OSC 52.
    public func copyToClipboard(_ text: String) {
        guard started, !suspended else { return }
        Self.write(OSC52.sequence(for: text))
    }

    // MARK: - Internals

    private func readSize() {
        let rows = Int(nimbus_rows())
        let cols = Int(nimbus_cols())
        if rows > 0 && cols > 0 { size = Size(cols: cols, rows: rows) }
    }

    /// The largest `COLUMNS` or `LINES` taken from the environment.
    public static let maxDimension = 4096

    private static func initialSize() -> Size {
        let environment = sizeVariables()
        return startingSize(columns: environment.columns, lines: environment.lines, terminal: terminalSize())
    }

    /// The size to start with: the terminal's own when stdout is a terminal that reports one, else
    /// `COLUMNS`×`LINES` when both are usable (fake terminals, tests), else 80×24.
    static func startingSize(columns: String?, lines: String?, terminal: Size?) -> Size {
        if let terminal { return terminal }
        if let c = columns.flatMap({ Int($0) }), let r = lines.flatMap({ Int($0) }),
           (1...maxDimension).contains(c), (1...maxDimension).contains(r) {
            return Size(cols: c, rows: r)
        }
        return Size(cols: 80, rows: 24)
    }

    /// What is wrong with `COLUMNS` or `LINES` for curses, which reads them when the terminal
    /// reports no size of its own; nil when they are unset, empty or usable.
    static func sizeVariableProblem(columns: String?, lines: String?) -> NCursesError? {
        for (name, value) in [("COLUMNS", columns), ("LINES", lines)] {
            guard let value, !value.isEmpty else { continue }
            guard let n = Int(value), (1...maxDimension).contains(n) else {
                return .badSizeVariable(name: name, value: value)
            }
        }
        return nil
    }

    /// Why `newterm` failed, each cause with its own message.
    static func whyInitFailed(term: String) -> NCursesError {
        if term.isEmpty { return .noTerm }
        switch nimbus_terminfo_status(term) {
        case 0: return .unknownTerminal(term: term)
        case -1: return .noTerminfo(term: term)
        default: return .initFailed(term: term)
        }
    }

    private static func sizeVariables() -> (columns: String?, lines: String?) {
        (getenv("COLUMNS").map { String(cString: $0) }, getenv("LINES").map { String(cString: $0) })
    }

    /// The terminal's own size (TIOCGWINSZ on stdout), when stdout is a terminal that reports one.
    private static func terminalSize() -> Size? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var rows: Int32 = 0
        var cols: Int32 = 0
        guard nimbus_winsize(&rows, &cols) == 0 else { return nil }
        return Size(cols: Int(cols), rows: Int(rows))
    }

    private static func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { nimbus_write($0, buf.count) }
        }
    }

    /// A terminfo string capability's bytes; empty when the terminal lacks it.
    private static func capability(_ name: String) -> [UInt8] {
        nimbus_tigetstr(name).map { withoutPadding($0) } ?? []
    }

    private static func parameterized(_ name: String, _ a: Int32, _ b: Int32? = nil) -> [UInt8] {
        guard let cap = nimbus_tigetstr(name) else { return [] }
        let out = b.map { nimbus_tiparm2(cap, a, $0) } ?? nimbus_tiparm1(cap, a)
        return out.map { withoutPadding($0) } ?? []
    }

    /// The bytes of a terminfo string less its padding marks (`$<5>`, `$<2*/>`): delays for
    /// hardware terminals, which `tputs` would turn into waits and which are text to anything else.
    static func withoutPadding(_ s: UnsafePointer<CChar>) -> [UInt8] {
        let bytes = Array(UnsafeRawBufferPointer(start: s, count: strlen(s)))
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<"),
               let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: ">")),
               bytes[(i + 2)..<close].allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2A || $0 == 0x2F }) {
                i = close + 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    private func makeSequences() -> FrameEncoder.Sequences {
        let reset = Self.capability("sgr0")
        let bold = Self.capability("bold"), dim = Self.capability("dim")
        let reverse = Self.capability("rev"), underline = Self.capability("smul")
        let color = supportsColor
        let colorCount = self.colorCount
        // Attributes the terminal cannot show together with colours (`ncv`; the Linux console
        // shows underline and dim as colours): dropped from coloured cells, as curses does.
        let noColorVideo = color ? max(0, nimbus_tigetnum("ncv")) : 0
        return FrameEncoder.Sequences(
            moveTo: { x, y in Self.parameterized("cup", Int32(y), Int32(x)) }, // remembered by the encoder
            style: { style in
                var out = reset
                let colored = color && (style.fg != .default || style.bg != .default)
                func allowed(_ bit: Int32) -> Bool { !colored || noColorVideo & bit == 0 }
                if style.bold && allowed(32) { out += bold }
                if style.dim && allowed(16) { out += dim }
                // Without colours a highlighted background is shown reversed, so it stays visible.
                if (style.reverse || (!color && style.bg != .default)) && allowed(4) { out += reverse }
                if style.underline && allowed(2) { out += underline }
                if color {
                    if let fg = Self.colorNumber(style.fg, count: colorCount) { out += Self.parameterized("setaf", fg) }
                    if let bg = Self.colorNumber(style.bg, count: colorCount) { out += Self.parameterized("setab", bg) }
                }
                return out
            },
            reset: reset, clear: Self.capability("clear"),
            showCursor: Self.capability("cnorm"), hideCursor: Self.capability("civis"),
            lastCellScrolls: nimbus_tigetflag("am") != 0 && nimbus_tigetflag("xenl") == 0,
            lineMoves: Self.lineMoveSequences(),
            moveRight: nimbus_tigetstr("cuf") == nil ? nil : { n in Self.parameterized("cuf", Int32(n)) },
            eraseCharacters: nimbus_tigetstr("ech") == nil ? nil : { n in Self.parameterized("ech", Int32(n)) },
            // Without colours a background is shown reversed (above), which no erase makes.
            backColorErase: color && nimbus_tigetflag("bce") > 0)
    }

    /// The terminal's ways to move the lines it shows (`LineMoves`): a scroll region (`csr`) with
    /// `ind`/`ri` or `indn`/`rin`, and `il`/`dl` (or `il1`/`dl1` repeated); each left out when
    /// terminfo has no such string.
    static func lineMoveSequences() -> FrameEncoder.LineMoveSequences {
        func string(_ name: String) -> [UInt8]? {
            let bytes = capability(name)
            return bytes.isEmpty ? nil : bytes
        }
        // One line with the one-line string where there is one (`dl1` is `\E[M`, `dl` with 1 `\E[1M`).
        func counted(_ name: String, orRepeated single: String) -> ((Int) -> [UInt8])? {
            let one = string(single), many = nimbus_tigetstr(name) != nil
            guard one != nil || many else { return nil }
            return { n in
                if let one, n == 1 || !many { return Array(repeating: one, count: n).flatMap { $0 } }
                return parameterized(name, Int32(n))
            }
        }
        func counted(_ name: String) -> ((Int) -> [UInt8])? {
            nimbus_tigetstr(name) == nil ? nil : { n in parameterized(name, Int32(n)) }
        }
        return FrameEncoder.LineMoveSequences(
            setScrollRegion: nimbus_tigetstr("csr") == nil ? nil : { top, bottom in parameterized("csr", Int32(top), Int32(bottom)) },
            scrollForward: string("ind"), scrollReverse: string("ri"),
            scrollForwardLines: counted("indn"), scrollReverseLines: counted("rin"),
            insertLines: counted("il", orRepeated: "il1"), deleteLines: counted("dl", orRepeated: "dl1"))
    }

    /// The palette entry for `c`; nil for the terminal's default colour.
    static func colorNumber(_ c: Color, count: Int32) -> Int32? {
        switch c {
        case .default: return nil
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .index(let n): return Int32(n) < count ? Int32(n) : basicColor(n)
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
