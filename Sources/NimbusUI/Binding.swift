import NimbusPresentation
import NimbusTerminal

/// What a binding sends, as a value: the `KeyCommand` of the key map it was listed from (or the app's
/// own command), its type erased so one list holds the bindings of every scope. The scope that
/// listed it takes it back as its own type (`as(_:)`); bindings compare by it.
public struct BoundCommand: Equatable {
    let base: any Equatable

    public init(_ base: some Equatable) { self.base = base }

    /// The command as the type `T` its scope sends; nil for a command of another scope.
    public func `as`<T>(_ type: T.Type) -> T? { base as? T }

    public static func == (lhs: BoundCommand, rhs: BoundCommand) -> Bool { lhs.base.isEqual(to: rhs.base) }
}

private extension Equatable {
    func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}

/// A key binding as the app dispatches it: the keys, how the help names them and what they do, the
/// short label the status bar shows (if it shows them at all), and the command they send. Data
/// only: the scope that listed it (a screen, a panel, an overlay, the app) carries out the command,
/// in its one `perform(_:key:)`.
///
/// A scope lists its bindings for its current state; the app dispatches keys from that list and
/// makes the status bar and the help from it, so what the help says is what the keys do (lazygit's
/// bindings).
public struct Binding: Equatable {
    /// The keys that send it.
    public let keys: [Key]
    /// The keys as the help writes them ("↑ ↓  j k"; a key of the strings for words, "click on the map").
    public let keyLabel: Words
    /// What it does, for the help (said in the help's language).
    public let help: Words
    /// The status bar's short label; nil: listed only in the help.
    public let hint: String?
    /// The status bar's key text when it differs from `keyLabel` ("PgDn" for a long list of keys).
    public let hintKey: String?
    /// What it sends to its scope's `perform`.
    public let command: BoundCommand
    /// False while the binding is listed but not in force: its keys then say `disabledReason`, or
    /// with none pass on to the next scope.
    public let isEnabled: Bool
    /// Why the keys do nothing now (lazygit's disabled reason): set only while it is not enabled;
    /// pressing one of its keys then says this on the status line.
    public let disabledReason: String?
    /// Listed for the help and the bar only: the key is handled elsewhere (a field's Ctrl-C) and
    /// claims nothing in the conflict walk.
    public let describesOnly: Bool

    public init(_ keys: [Key], _ keyLabel: Words, help: Words, hint: String? = nil, hintKey: String? = nil,
                command: BoundCommand, isEnabled: Bool = true, disabledReason: String? = nil, describesOnly: Bool = false) {
        self.keys = keys
        self.keyLabel = keyLabel
        self.help = help
        self.hint = hint
        self.hintKey = hintKey
        self.command = command
        self.isEnabled = isEnabled
        self.disabledReason = isEnabled ? nil : disabledReason
        self.describesOnly = describesOnly
    }

    /// One key, written as itself ("r").
    public init(_ key: Key, help: Words, hint: String? = nil, command: BoundCommand) {
        self.init([key], .text(Self.name(key)), help: help, hint: hint, command: command)
    }

    /// The binding that takes `key`, if any.
    public static func find(_ key: Key, in bindings: [Binding]) -> Binding? {
        bindings.first { $0.keys.contains(key) }
    }

    /// What pressing a key came to in one scope.
    public enum Press: Equatable {
        /// A binding took the key.
        case ran
        /// Its binding is listed but not in force, and says why.
        case refused(String)
        /// No binding took it: the next scope may.
        case passed
    }

    /// Presses `key` in `bindings`: the command of the binding that takes it goes to `perform` (the
    /// scope's), or the binding says why it does not act; a command with nothing to do (`perform`
    /// returns false), or a binding disabled with no reason, passes the key on.
    public static func press(_ key: Key, in bindings: [Binding], perform: (BoundCommand, Key) -> Bool) -> Press {
        guard let binding = find(key, in: bindings) else { return .passed }
        guard binding.isEnabled else { return binding.disabledReason.map(Press.refused) ?? .passed }
        return perform(binding.command, key) ? .ran : .passed
    }

    /// The help's line for this binding, said in the help's language.
    public var helpEntry: HelpEntry { HelpEntry(key: keyLabel, label: help) }

    /// The help's line for this binding in `l10n`'s language.
    public func keyHint(in l10n: L10n) -> KeyHint { KeyHint(keyLabel.said(in: l10n), help.said(in: l10n)) }

    /// The status bar's entry in `l10n`'s language, for a binding that has one.
    public func barHint(in l10n: L10n) -> KeyHint? { hint.map { KeyHint(hintKey ?? keyLabel.said(in: l10n), $0) } }

    /// How a key is written in the help and the status bar.
    public static func name(_ key: Key) -> String {
        switch key {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .escape: return "Esc"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Insert"
        case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
        case .function(let n): return "F\(n)"
        case .paste, .mouse, .unknown: return ""
        }
    }
}

/// What the bindings of one scope get wrong: a key bound twice, or a binding with no key.
public enum BindingConflicts {
    /// Keys bound more than once across `scopes` (a screen's own and the app's global ones, say),
    /// each with the help texts that claim it (in English: these are for the developer).
    public static func duplicates(_ scopes: [[Binding]]) -> [(key: Key, claims: [String])] {
        let english = L10n.bundled(.en)
        var claims: [Key: [String]] = [:]
        var order: [Key] = []
        for binding in scopes.joined() {
            for key in Set(binding.keys) {
                if claims[key] == nil { order.append(key) }
                claims[key, default: []].append(binding.help.said(in: english))
            }
        }
        return order.compactMap { key in
            let c = claims[key]!
            return c.count > 1 ? (key, c) : nil
        }
    }

    /// Bindings that show a hint but have no key to press.
    public static func unbound(_ bindings: [Binding]) -> [String] {
        let english = L10n.bundled(.en)
        return bindings.filter { $0.hint != nil && $0.keys.isEmpty }.map { $0.help.said(in: english) }
    }
}
