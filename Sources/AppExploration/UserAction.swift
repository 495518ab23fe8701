import Foundation
import NimbusTerminal

/// One thing a user (or the world around the app) does: a key, typed or pasted text, a resize, a
/// restart, time passing, or the server answering differently.
///
/// Actions are made from small integers (`init(code:)`), so a generator of integer arrays explores
/// them and a shrinker that lowers integers and drops elements makes failing sequences simpler:
/// lower codes are plainer actions.
public enum UserAction: Equatable, CustomStringConvertible, Sendable {
    case key(Key)
    case type(String)
    case paste([UInt8])
    case resize(Size)
    case wait(milliseconds: Int)
    case restart
    case network(ScriptedNetwork.Mode)
    /// The disk fills (every change of the likes and the wishlist refused), or has room again.
    case disk(full: Bool)

    /// How many codes there are; `init(code:)` takes any integer and reduces it.
    public static let codeCount = 1000

    /// Keys the app knows, the commonest first.
    static let keys: [Key] = [
        .down, .up, .enter, .escape, .char("1"), .char("2"), .char("3"), .char("4"), .char("5"), .char("6"), .char("/"),
        .char("f"), .char("w"), .char("d"), .char("D"), .char("y"), .char("n"), .char("r"), .char("?"), .char("q"),
        .char("j"), .char("k"), .char("g"), .char("G"), .backspace, .tab, .backTab, .left, .right, .pageUp,
        .pageDown, .home, .end, .delete, .char("+"), .char("-"), .char("0"), .char("c"), .char("h"), .char("l"),
        // F12's overlay stays up until Esc and would hide the screens from the checks for long stretches.
        .char(" "), .ctrl("l"), .ctrl("z"), .ctrl("c"), .char("x"), .char("9"), .char("m"), .char("p"), .char("s"), .function(1),
        .insert, .char("é"), .char("서"), .char("z"), .char("Z"), .char("z"),
    ]

    /// Text in the scripts the app serves: city and film names, partial words, and nonsense.
    static let texts: [String] = [
        "seoul", "서울", "nolan", "the", "とうきょう", "sao paulo", "부산", "heat", "a", "tokyo", "東京", "batman",
        "zzzzqx", "  ", "ソウル", "matrix", "q1", "é", "paris", "new york",
    ]

    /// Pastes with control bytes and escape sequences among the text.
    static let pastes: [[UInt8]] = [
        Array("seoul\r".utf8), Array("a\u{1B}[2Jb".utf8), [0x1B], Array("\u{1B}[A\u{1B}[B\u{1B}[1;5C".utf8),
        Array("x\u{07}\u{08}\u{7F}y".utf8), [0xFF, 0xFE, 0xC3], Array("\u{1B}]0;title\u{07}".utf8),
        Array("tab\tnew\nline".utf8), Array("\u{1B}[200~paste\u{1B}[201~".utf8), Array("\u{1B}O".utf8),
        Array(String(repeating: "서울 ", count: 40).utf8), Array("e\u{301}\u{301}\u{301}\u{301}".utf8),
    ]

    /// Mouse reports as a terminal writes them (SGR 1006, and one legacy X10 report): clicks on the
    /// tab bar, on rows and on the status bar, double clicks, the wheel, a drag, and reports far
    /// outside the screen or cut short.
    static let mouse: [[UInt8]] = {
        func sgr(_ events: [MouseEvent]) -> [UInt8] { events.flatMap(\.sgrBytes) }
        func click(_ x: Int, _ y: Int) -> [MouseEvent] { [MouseEvent(.press, x: x, y: y), MouseEvent(.release, x: x, y: y)] }
        return [
            sgr(click(5, 4)), sgr(click(41, 0)), sgr(click(5, 4) + click(5, 4)),
            sgr([MouseEvent(.wheelDown, button: .none, x: 5, y: 8)]), sgr([MouseEvent(.wheelUp, button: .none, x: 90, y: 10)]),
            sgr([MouseEvent(.press, x: 90, y: 10), MouseEvent(.drag, x: 80, y: 12), MouseEvent(.drag, x: 70, y: 14),
                 MouseEvent(.release, x: 70, y: 14)]),
            sgr(click(12, 0)), sgr(click(3, 23)), sgr(click(9, 2)), sgr(click(999, 999)),
            Array("\u{1B}[<0;99999;1M".utf8), Array("\u{1B}[<0;5".utf8), Array("\u{1B}[M #$".utf8),
        ]
    }()

    static let sizes: [Size] = [
        Size(cols: 80, rows: 24), Size(cols: 40, rows: 10), Size(cols: 120, rows: 30), Size(cols: 100, rows: 30),
        Size(cols: 1, rows: 1), Size(cols: 39, rows: 9), Size(cols: 300, rows: 100), Size(cols: 88, rows: 32),
        Size(cols: 2, rows: 1), Size(cols: 60, rows: 15),
    ]

    public init(code: Int) {
        let code = abs(code % Self.codeCount)
        let kind = code % 20
        let n = code / 20
        switch kind {
        case 0..<9: self = .key(Self.keys[(n + kind * 7) % Self.keys.count])
        case 9, 10: self = .type(Self.texts[n % Self.texts.count])
        case 11: self = .paste(Self.pastes[n % Self.pastes.count])
        case 12, 13:
            self = .resize(n < 30 ? Self.sizes[n % Self.sizes.count] : Size(cols: 1 + (n * 37) % 300, rows: 1 + (n * 13) % 100))
        case 14, 15: self = .wait(milliseconds: [50, 300, 1000, 5000][n % 4])
        case 16: self = .restart
        case 17: self = .network(ScriptedNetwork.Mode.allCases[n % ScriptedNetwork.Mode.allCases.count])
        case 18: self = .paste(Self.mouse[n % Self.mouse.count])
        case 19 where n % 8 == 7: self = .disk(full: (n / 8) % 2 == 0)
        default: self = .key(Self.keys[n % 10])
        }
    }

    public var description: String {
        switch self {
        case .key(let key): return "Press \(key)"
        case .type(let text): return "Type \(text.debugDescription)"
        case .paste(let bytes): return "Paste \(String(decoding: bytes, as: UTF8.self).debugDescription)"
        case .resize(let size): return "Resize \(size.cols)x\(size.rows)"
        case .wait(let ms): return "Wait \(ms)ms"
        case .restart: return "Restart"
        case .network(let mode): return "Network \(mode)"
        case .disk(let full): return full ? "Disk full" : "Disk has room"
        }
    }

    /// Does the action to the app.
    @MainActor public func perform(on harness: AppHarness, network: ScriptedNetwork) throws {
        switch self {
        case .key(let key): harness.send([key])
        case .type(let text): harness.type(text)
        case .paste(let bytes): harness.feed(bytes)
        case .resize(let size): harness.resize(size)
        case .wait(let ms): harness.advance(by: .milliseconds(ms))
        case .restart: try harness.restart()
        case .network(let mode): network.mode = mode
        case .disk(let full): try harness.setDiskFull(full)
        }
    }
}
