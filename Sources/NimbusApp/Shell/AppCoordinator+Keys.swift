import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The app's own keys: its commands (tabs, help, settings, copy, quit), going back, and the keys
/// that work everywhere; the help and the status bar are made from the same lists.
extension AppCoordinator {
    /// The app's commands, in every screen whose keys are bindings (outside its text field).
    var commands: [Binding] {
        var list: [Binding] = []
        if navigator.tabs.count > 1 {
            let digits = (1...navigator.tabs.count).map { Key.char(Character(String($0))) }
            list.append(Binding(digits, "1-\(navigator.tabs.count)", help: l10n[.helpKeyTabs], hint: l10n[.hintTabs]) {
                [unowned self] key in
                guard case .char(let c) = key, let n = c.wholeNumberValue else { return false }
                navigator.select(n - 1)
                return true
            })
            list.append(Binding([.tab, .backTab], "Tab S-Tab", help: l10n[.helpKeyTabnext]) { [unowned self] key in
                navigator.selectNext(key == .tab ? 1 : -1)
                return true
            })
        }
        list += [
            Binding(.char("?"), help: l10n[.helpKeyHelp], hint: l10n[.hintHelp]) { [unowned self] in openHelp() },
            Binding([.char(","), .function(2)], ", F2", help: l10n[.helpKeySettings]) { [unowned self] in openSettings() },
            Binding([.char("y")], "y", help: l10n[.helpKeyCopy]) { [unowned self] _ in copySelection() },
            Binding(.char("q"), help: l10n[.helpKeyQuit], hint: l10n[.hintQuit]) { [unowned self] in quitRequested = true },
        ]
        return list
    }

    /// Keys no scope took: Esc and Backspace go back when there is a screen to go back to (and the
    /// screen does not use them itself).
    func fallbacks(for own: [Binding]) -> [Binding] {
        guard navigator.tabs.indices.contains(navigator.active), navigator.tabs[navigator.active].stack.count > 1,
              Binding.find(.escape, in: own) == nil else { return [] }
        return [Binding([.escape, .backspace], "Esc Backspace", help: l10n[.helpKeyBack], hint: l10n[.hintBack], hintKey: "Esc") {
            [unowned self] in navigator.pop()
        }]
    }

    /// What a key that works everywhere does.
    enum GlobalCommand: Equatable {
        case quit, redraw, suspend, mapStatistics
    }

    /// A key that works everywhere, a text field and an overlay included (handled before any scope).
    struct GlobalKey: Equatable {
        let key: Key
        /// What the help says it does; nil: not listed there (Ctrl-Z: listing it would move every
        /// help page's rows, which the tapes' snapshots hold).
        let help: L10nKey?
        let command: GlobalCommand
    }

    /// The keys that work everywhere: dispatch and the help read this list.
    static let alwaysGlobal: [GlobalKey] = [
        GlobalKey(key: .ctrl("c"), help: .helpKeyCtrlc, command: .quit),
        GlobalKey(key: .ctrl("l"), help: .helpKeyRedraw, command: .redraw),
        // The terminal is in raw mode, so Ctrl-Z arrives as a key rather than as SIGTSTP.
        GlobalKey(key: .ctrl("z"), help: nil, command: .suspend),
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

    /// The help's lines for the keys that work everywhere.
    private var alwaysGlobalHints: [KeyHint] {
        Self.alwaysGlobal.compactMap { global in global.help.map { KeyHint(Binding.name(global.key), l10n[$0]) } }
    }

    /// `?`: the shown screen's keys and the app's, from their bindings.
    func openHelp() {
        let mouse = mouseWanted ? [
            KeyHint(l10n[.helpMouseClick], l10n[.helpMouseClickLabel]),
            KeyHint(l10n[.helpMouseWheel], l10n[.helpMouseWheelLabel]),
            KeyHint(l10n[.helpMouseShift], l10n[.helpMouseShiftLabel]),
        ] : []
        let own = navigator.top?.bindings ?? []
        let screen = (fallbacks(for: own) + own).map(\.keyHint)
        let global = commands.map(\.keyHint) + alwaysGlobalHints + mouse
        let entries = { (hints: [KeyHint]) in hints.map { HelpEntry(key: $0.key, label: $0.label) } }
        overlays.push(HelpOverlay(viewModel: HelpViewModel(screen: entries(screen), global: entries(global), l10n: l10n), l10n: l10n))
    }

    /// What is wrong with the keys in force now: a key bound twice in one scope (the top overlay's,
    /// or the app's commands with the shown screen's), or a hint shown with no key. Empty when all is well.
    public var bindingProblems: [String] {
        var scopes: [[Binding]] = []
        if let top = overlays.top {
            scopes = [top.bindings]
        } else if let screen = navigator.top {
            scopes = screen.capturesText ? [screen.bindings] : [commands, screen.bindings]
        }
        let twice = BindingConflicts.duplicates(scopes).map { key, claims in
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
