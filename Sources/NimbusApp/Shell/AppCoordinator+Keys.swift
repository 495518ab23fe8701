import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The app's own keys: its commands (tabs, help, settings, copy, quit), going back, and the keys
/// that work everywhere; the help and the status bar are made from the same lists.
extension AppCoordinator {
    /// What one of the app's own keys asks for.
    enum AppCommand: Equatable {
        /// A tab by its index (the digits), or the next (+1) or previous (-1) one (Tab, Shift-Tab).
        case selectTab(Int), nextTab(Int)
        case help, settings, copy, quit
        /// `z` and `Z`: the last change to the user's data taken back, or made again.
        case undo, redo
        /// Back to the screen under this one (Esc, Backspace).
        case back
    }

    typealias AppKeys = KeyMap<AppCommand, Void>

    /// The app's commands as data, for `tabs` tabs: the tabs' digits and Tab (with more than one),
    /// `?`, `,` F2, `y`, `z` `Z` and `q`.
    nonisolated static func commandKeys(_ l10n: L10n, tabs: Int) -> AppKeys {
        typealias B = KeyBinding<AppCommand, Void>
        var list: [B] = []
        if tabs > 1 {
            let digits = (1...tabs).map { Key.char(Character(String($0))) }
            list.append(B(digits, "1-\(tabs)", help: .key(.helpKeyTabs), hint: l10n[.hintTabs],
                          .sendEach(Dictionary(uniqueKeysWithValues: digits.enumerated().map { ($1, .selectTab($0)) }))))
            list.append(B([.tab, .backTab], "Tab S-Tab", help: .key(.helpKeyTabnext), .sendEach([.tab: .nextTab(1), .backTab: .nextTab(-1)])))
        }
        return KeyMap(list + [
            B(.char("?"), help: .key(.helpKeyHelp), hint: l10n[.hintHelp], .send(.help)),
            B([.char(","), .function(2)], ", F2", help: .key(.helpKeySettings), .send(.settings)),
            B(.char("y"), help: .key(.helpKeyCopy), .send(.copy)),
            B(.char("z"), help: .key(.helpKeyUndo), .send(.undo)),
            B(.char("Z"), help: .key(.helpKeyRedo), .send(.redo)),
            B(.char("q"), help: .key(.helpKeyQuit), hint: l10n[.hintQuit], .send(.quit)),
        ])
    }

    /// Esc and Backspace going back, as data.
    nonisolated static func backKeys(_ l10n: L10n) -> AppKeys {
        KeyMap([KeyBinding([.escape, .backspace], "Esc Backspace", help: .key(.helpKeyBack), hint: l10n[.hintBack], hintKey: "Esc",
                           .send(.back))])
    }

    /// The app's commands, in every screen whose keys are bindings (outside its text field).
    var commands: [Binding] { Self.commandKeys(l10n, tabs: navigator.tabs.count).bindings(in: ()) }

    /// Keys no scope took: Esc and Backspace go back when there is a screen to go back to (and the
    /// screen does not use them itself).
    func fallbacks(for own: [Binding]) -> [Binding] {
        guard navigator.tabs.indices.contains(navigator.active), navigator.tabs[navigator.active].stack.count > 1,
              Binding.find(.escape, in: own) == nil else { return [] }
        return Self.backKeys(l10n).bindings(in: ())
    }

    /// Carries out the command of one of the app's bindings (`commands`, `fallbacks`); false when it
    /// had nothing to do (nothing to copy).
    func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard case .send(let command)? = AppKeys.command(command, pressed: key) else { return false }
        switch command {
        case .selectTab(let index): navigator.select(index)
        case .nextTab(let step): navigator.selectNext(step)
        case .help: openHelp()
        case .settings: openSettings()
        case .copy: return copySelection()
        case .undo: undoLastChange()
        case .redo: redoLastChange()
        case .quit: quitRequested = true
        case .back: navigator.pop()
        }
        return true
    }

    /// What a key that works everywhere does.
    enum GlobalCommand: Equatable {
        case quit, redraw, suspend, mapStatistics
    }

    /// A key that works everywhere, a text field and an overlay included (handled before any scope).
    struct GlobalKey: Equatable {
        let key: Key
        /// What the help says it does.
        let help: L10nKey
        let command: GlobalCommand
    }

    /// The keys that work everywhere: dispatch and the help read this list.
    static let alwaysGlobal: [GlobalKey] = [
        GlobalKey(key: .ctrl("c"), help: .helpKeyCtrlc, command: .quit),
        GlobalKey(key: .ctrl("l"), help: .helpKeyRedraw, command: .redraw),
        // The terminal is in raw mode, so Ctrl-Z arrives as a key rather than as SIGTSTP.
        GlobalKey(key: .ctrl("z"), help: .helpKeySuspend, command: .suspend),
        GlobalKey(key: .function(12), help: .helpKeyDebug, command: .mapStatistics),
    ]

    /// Carries out a global key's command.
    func run(_ command: GlobalCommand) {
        switch command {
        case .quit: quitRequested = true
        case .redraw: needsDisplay.setFullRedraw() // the next frame clears the screen and repaints it all
        case .suspend: onSuspendRequested?()
        case .mapStatistics: toggleMapStats()
        }
    }

    /// The keys that work everywhere as bindings, for the help and the conflict walk (dispatch runs
    /// them before any scope, in `handle(_:)`, from `alwaysGlobal`).
    private var alwaysGlobalBindings: [Binding] {
        Self.alwaysGlobal.map { Binding($0.key, help: .key($0.help), command: BoundCommand($0.command)) }
    }

    /// `?`: the shown screen's keys and the app's, from their bindings.
    func openHelp() {
        let mouse = mouseWanted ? [
            HelpEntry(key: .key(.helpMouseClick), label: .key(.helpMouseClickLabel)),
            HelpEntry(key: .key(.helpMouseWheel), label: .key(.helpMouseWheelLabel)),
            HelpEntry(key: .key(.helpMouseShift), label: .key(.helpMouseShiftLabel)),
        ] : []
        let own = navigator.top?.bindings ?? []
        let screen = (fallbacks(for: own) + own).map(\.helpEntry)
        let global = (commands + alwaysGlobalBindings).map(\.helpEntry) + mouse
        overlays.push(HelpOverlay(viewModel: HelpViewModel(screen: screen, global: global, l10n: l10n)))
    }

    /// What is wrong with the keys in force now: a key bound twice in one scope (the top overlay's,
    /// or the app's commands with the shown screen's), a key of the top scope that one of the keys
    /// working everywhere takes first, or a hint shown with no key. Empty when all is well. A binding
    /// listed only for the help and the bar (a field's Ctrl-C) claims no key.
    public var bindingProblems: [String] {
        var scopes: [[Binding]] = []
        if let top = overlays.top {
            scopes = [top.bindings]
        } else if let screen = navigator.top {
            scopes = screen.capturesText ? [screen.bindings] : [commands, screen.bindings]
        }
        let claiming = [alwaysGlobalBindings] + scopes.map { $0.filter { !$0.describesOnly } }
        let twice = BindingConflicts.duplicates(claiming).map { key, claims in
            "\(Binding.name(key)) is bound \(claims.count) times: " + claims.joined(separator: " / ")
        }
        return twice + BindingConflicts.unbound(scopes.flatMap { $0 }).map { "the hint “\($0)” has no key" }
    }

    /// Tab and Shift-Tab, which a focused text field leaves to the app.
    @discardableResult
    func handleTabKeys(_ key: Key) -> Bool {
        switch key {
        case .tab: navigator.selectNext(1); return true
        case .backTab: navigator.selectNext(-1); return true
        default: return false
        }
    }
}
