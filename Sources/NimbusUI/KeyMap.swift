import NimbusPresentation
import NimbusTerminal

/// What a key asks for: a value the screen carries out, never code of its own.
public enum KeyCommand<Event: Equatable>: Equatable {
    /// Send the view model this event.
    case send(Event)
    /// Send the event of the key pressed: one binding (one line of the help) whose keys send
    /// different events (`+` zooms in, `-` out; `[` and `]` move back and on).
    case sendEach([Key: Event])
    /// Move the list's selection as the key says (↑ ↓ j k, PgUp PgDn, Home End g G): the screen's
    /// `ListState` knows the page the last frame drew, and the view model gets the row it lands on.
    case moveSelection
    /// Scroll the text as the key says, within what the last frame measured.
    case scroll
    /// Open the selected row, remove it, or like it: the view model gets its index.
    case openSelection, removeSelection, likeSelection
    /// The key edits the focused text field (Enter, ↓ and Esc leave it or clear it).
    case editField
    /// Listed for the help and the status bar only: the key is handled elsewhere (the app's Ctrl-C,
    /// the field's keys named in the list's help) and passes on.
    case describe

    /// What the command asks for when `key` was pressed: `.sendEach` is the `.send` of the key's event.
    public func pressed(_ key: Key) -> KeyCommand {
        if case .sendEach(let events) = self, let event = events[key] { return .send(event) }
        return self
    }

    /// Carries out the command of a screen of scrolled text (a film's details, the warnings): an event
    /// is sent, a scroll key sends the line it scrolls to (`scrolled`); false for any other command,
    /// or a scroll with nowhere to go.
    func performOnText(_ key: Key, scroll: TextScroll, send: (Event) -> Void, scrolled: (Int) -> Event) -> Bool {
        switch self {
        case .send(let event): send(event)
        case .scroll:
            guard let line = scroll.after(key) else { return false }
            send(scrolled(line))
        case .moveSelection, .openSelection, .removeSelection, .likeSelection, .editField, .describe, .sendEach: return false
        }
        return true
    }
}

/// When a binding is in force: always, or while a property of the screen's state is true (or false).
/// A key path, not a closure, so bindings compare as values.
public struct Condition<State>: Equatable {
    let path: KeyPath<State, Bool>?
    let negated: Bool

    public static var always: Condition { Condition(path: nil, negated: false) }
    public static func when(_ path: KeyPath<State, Bool>) -> Condition { Condition(path: path, negated: false) }
    public static func unless(_ path: KeyPath<State, Bool>) -> Condition { Condition(path: path, negated: true) }

    /// Before the screen's first state every property reads false.
    public func holds(in state: State?) -> Bool {
        guard let path else { return true }
        return (state?[keyPath: path] ?? false) != negated
    }

    /// `holds(in:)` for a state already unwrapped, read in place: unwrapping copies the whole state
    /// (every array and string in it retained and released), so a walk over a list unwraps once.
    func holds(_ state: State) -> Bool {
        guard let path else { return true }
        return state[keyPath: path] != negated
    }
}

/// A key binding as data (lazygit's `Binding`): the keys, how the help and the status bar name them,
/// the command they send, and when they are in force, with the reason when they are not.
///
/// Three conditions, each a key path: `when` (listed at all: in the help, the bar and dispatch; the
/// key is otherwise unbound), `enabled` (listed, but while it does not hold the key does nothing and
/// the status line says `disabledReason`, or with no reason passes on to the next scope), and
/// `hintWhen` (the bar shows the hint only then).
public struct KeyBinding<Event: Equatable, State>: Equatable {
    public let keys: [Key]
    /// The keys as the help writes them ("↑ ↓  j k"; a key of the strings for words, "click on the map").
    public let keyLabel: Words
    /// What it does, for the help (said in the help's language).
    public let help: Words
    /// The status bar's short label; nil: listed only in the help.
    public let hint: String?
    /// The status bar's key text when it differs from `keyLabel`.
    public let hintKey: String?
    public let command: KeyCommand<Event>
    /// Listed only while this holds.
    public let when: Condition<State>
    /// Acts only while this holds (lazygit's `GetDisabledReason`), saying `disabledReason` otherwise.
    public let enabled: Condition<State>
    public let disabledReason: String?
    /// The bar shows `hint` only while this holds.
    public let hintWhen: Condition<State>

    public init(_ keys: [Key], _ keyLabel: Words, help: Words, hint: String? = nil, hintKey: String? = nil,
                _ command: KeyCommand<Event>, when: Condition<State> = .always, enabled: Condition<State> = .always,
                disabledReason: String? = nil, hintWhen: Condition<State> = .always) {
        self.keys = keys
        self.keyLabel = keyLabel
        self.help = help
        self.hint = hint
        self.hintKey = hintKey
        self.command = command
        self.when = when
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.hintWhen = hintWhen
    }

    /// One key, written as itself ("r").
    public init(_ key: Key, help: Words, hint: String? = nil, _ command: KeyCommand<Event>, when: Condition<State> = .always,
                enabled: Condition<State> = .always, disabledReason: String? = nil, hintWhen: Condition<State> = .always) {
        self.init([key], .text(Binding.name(key)), help: help, hint: hint, command, when: when, enabled: enabled,
                  disabledReason: disabledReason, hintWhen: hintWhen)
    }

    /// The same binding with the bar's hint `hint` (written `hintKey`) while `when` holds.
    public func hinted(_ hint: String, key hintKey: String? = nil, when hintWhen: Condition<State>) -> KeyBinding {
        KeyBinding(keys, keyLabel, help: help, hint: hint, hintKey: hintKey, command, when: when, enabled: enabled,
                   disabledReason: disabledReason, hintWhen: hintWhen)
    }

    /// The keys that move a list's selection, written once for every list. `top: false` leaves `g`
    /// (the first row) to the screen, for a screen whose `g` does something else.
    public static func listMoves(top: Bool = true, when: Condition<State> = .always) -> [KeyBinding] {
        [
            KeyBinding([.up, .down, .char("k"), .char("j")], "↑ ↓  j k", help: .key(.helpKeyMove), .moveSelection, when: when),
            KeyBinding([.pageUp, .pageDown], "PgUp PgDn", help: .key(.helpKeyPage), .moveSelection, when: when),
            top ? KeyBinding([.home, .end, .char("g"), .char("G")], "Home End  g G", help: .key(.helpKeyEnds), .moveSelection, when: when)
                : KeyBinding([.home, .end, .char("G")], "Home End  G", help: .key(.helpKeyEnds), .moveSelection, when: when),
        ]
    }
}

/// A screen's whole list of bindings: dispatch, the status bar's hints, the help and the conflict walk
/// all read it, through `bindings(in:)`.
public struct KeyMap<Event: Equatable, State>: Equatable {
    public let all: [KeyBinding<Event, State>]
    /// The dispatcher's lists already made, by what the conditions answered (see `bindings(in:)`).
    private let made = MadeBindings()

    public init(_ all: [KeyBinding<Event, State>]) { self.all = all }

    public static func == (lhs: KeyMap, rhs: KeyMap) -> Bool { lhs.all == rhs.all }

    /// The bindings listed in `state`, in the list's order.
    public func listed(in state: State?) -> [KeyBinding<Event, State>] {
        all.filter { $0.when.holds(in: state) }
    }

    /// The binding `key` runs in `state`, if any: listed and enabled.
    public func binding(for key: Key, in state: State?) -> KeyBinding<Event, State>? {
        guard let binding = all.first(where: { $0.keys.contains(key) && $0.when.holds(in: state) }),
              binding.enabled.holds(in: state) else { return nil }
        return binding
    }

    /// What `key` asks for in `state`; nil when it is not bound (or not in force).
    public func command(for key: Key, in state: State?) -> KeyCommand<Event>? {
        binding(for: key, in: state)?.command.pressed(key)
    }

    /// The event `key` sends in `state`; nil when it sends none.
    public func event(for key: Key, in state: State?) -> Event? {
        if case .send(let event)? = command(for: key, in: state) { return event }
        return nil
    }

    /// The same for a key written as a character (`"f"`).
    public func event(for key: Character, in state: State?) -> Event? { event(for: .char(key), in: state) }

    /// Why `key` does nothing in `state`: the reason of its listed binding that is not enabled.
    public func disabledReason(for key: Key, in state: State?) -> String? {
        guard let binding = all.first(where: { $0.keys.contains(key) && $0.when.holds(in: state) }),
              !binding.enabled.holds(in: state) else { return nil }
        return binding.disabledReason
    }

    /// The bar's hint for `binding` in `state`.
    public func hint(_ binding: KeyBinding<Event, State>, in state: State?) -> String? {
        binding.hintWhen.holds(in: state) ? binding.hint : nil
    }

    /// The bindings listed in `state`, as the app dispatches them: each carries its `KeyCommand` (the
    /// scope's `perform` takes it back with `command(_:pressed:)`); a binding that is not enabled
    /// carries its `disabledReason` (the app says it when the key is pressed), or passes its key on
    /// when it has none.
    public func bindings(in state: State?) -> [Binding] {
        // Straight from `all` (not through `listed`): dispatch and the bar ask on every key and
        // frame, and a copy of each binding (or of the state) on the way costs a keystroke tens of
        // microseconds. The state is unwrapped once and each condition read in place. What the
        // list holds depends on the state only through its conditions' answers, so a list is made
        // once for each set of answers (a screen has a handful) and given again while they stay.
        func make(_ key: MadeBindings.Answers?, _ holds: (Condition<State>) -> Bool) -> [Binding] {
            guard let key else { return build(holds) }
            if let known = made.list(for: key) { return known }
            let list = build(holds)
            made.keep(list, for: key)
            return list
        }
        func build(_ holds: (Condition<State>) -> Bool) -> [Binding] {
            var bindings: [Binding] = []
            bindings.reserveCapacity(all.count)
            for binding in all where holds(binding.when) {
                bindings.append(Binding(binding.keys, binding.keyLabel, help: binding.help,
                                        hint: holds(binding.hintWhen) ? binding.hint : nil, hintKey: binding.hintKey,
                                        command: BoundCommand(binding.command), isEnabled: holds(binding.enabled),
                                        disabledReason: binding.disabledReason, describesOnly: binding.command == .describe))
            }
            return bindings
        }
        if let state { return make(answers(in: state)) { $0.holds(state) } }
        return make(answers(in: nil)) { $0.holds(in: nil) }
    }

    /// What the conditions answer in `state`, read in place (no closure: one that captured the state
    /// copied it for every condition); nil for a map too long to key by them.
    private func answers(in state: State) -> MadeBindings.Answers? {
        guard all.count <= MadeBindings.Answers.capacity else { return nil }
        var answers = MadeBindings.Answers()
        for i in all.indices where all[i].when.holds(state) {
            answers.set(3 * i)
            if all[i].hintWhen.holds(state) { answers.set(3 * i + 1) }
            if all[i].enabled.holds(state) { answers.set(3 * i + 2) }
        }
        return answers
    }

    private func answers(in state: State?) -> MadeBindings.Answers? {
        guard all.count <= MadeBindings.Answers.capacity else { return nil }
        var answers = MadeBindings.Answers()
        for i in all.indices where all[i].when.holds(in: state) {
            answers.set(3 * i)
            if all[i].hintWhen.holds(in: state) { answers.set(3 * i + 1) }
            if all[i].enabled.holds(in: state) { answers.set(3 * i + 2) }
        }
        return answers
    }

    /// What a binding of this map asks for when `key` was pressed (`.sendEach` as the `.send` of the
    /// key's event): the command a scope's `perform` gets, as this map's type. Nil for a command of
    /// another map (a panel's, listed with its host's).
    public static func command(_ command: BoundCommand, pressed key: Key) -> KeyCommand<Event>? {
        command.as(KeyCommand<Event>.self)?.pressed(key)
    }
}

/// The lists a `KeyMap` has made for the dispatcher, by the answers of its conditions (three bits a
/// binding: listed, hinted, enabled). A few at most; past `limit` it starts again.
final class MadeBindings {
    struct Answers: Equatable {
        static let capacity = 85 // bindings: 3 bits each in 256
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        mutating func set(_ bit: Int) {
            let mask = UInt64(1) << UInt64(bit & 63)
            switch bit >> 6 {
            case 0: words.0 |= mask
            case 1: words.1 |= mask
            case 2: words.2 |= mask
            default: words.3 |= mask
            }
        }

        static func == (a: Answers, b: Answers) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
        }
    }

    private static let limit = 32
    private var lists: [(answers: Answers, bindings: [Binding])] = []

    func list(for answers: Answers) -> [Binding]? {
        lists.first { $0.answers == answers }?.bindings
    }

    func keep(_ bindings: [Binding], for answers: Answers) {
        if lists.count >= Self.limit { lists.removeAll(keepingCapacity: true) }
        lists.append((answers, bindings))
    }
}
